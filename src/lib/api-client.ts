// The one way islands talk to the API (docs/product/api.md): credentials and X-Requested-With on every request,
// the anti-forgery cookie fetched before login, logout and the current-user check and echoed as
// X-XSRF-TOKEN, and the user cleared whenever the server answers 401 or 419 (docs/product/states.md#session).
import { readCookie } from './cookies.ts';
import { $user, setSession } from '../stores/session.ts';
import { finishTransfer, reportProgress, startLoading, stopLoading } from '../stores/loading.ts';

export interface ApiErrorBody {
  message?: string;
  errors?: Record<string, string[]>;
}

export class ApiError extends Error {
  readonly status: number;
  readonly body: ApiErrorBody;
  constructor(status: number, body: ApiErrorBody) {
    super(body.message ?? `Request failed with status ${status}`);
    this.status = status;
    this.body = body;
  }
  /** First message for a field (docs/product/messages.md#validation shows only the first). */
  field(name: string): string | undefined {
    return this.body.errors?.[name]?.[0];
  }
}

export interface RequestOptions {
  /** Show the full-screen loading modal while the request runs (docs/product/states.md: on at each request). */
  loading?: boolean;
  signal?: AbortSignal;
}

export async function fetchCsrfCookie(): Promise<void> {
  await fetch('/sanctum/csrf-cookie', { credentials: 'same-origin', headers: { 'X-Requested-With': 'XMLHttpRequest' } });
}

function baseHeaders(): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
  const xsrf = readCookie('XSRF-TOKEN');
  if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
  return headers;
}

function handleAuthLoss(status: number): void {
  if ((status === 401 || status === 419) && $user.get()) setSession(null);
}

function parseResponseText(text: string): unknown {
  if (!text) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { message: text.slice(0, 200) };
  }
}

async function readBody(response: Response): Promise<unknown> {
  return parseResponseText(await response.text());
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export async function apiRequest<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  // A reader of a static page has no XSRF cookie until something asks for one; without it every write
  // answers 419. Fetch it first instead of failing the first form the visitor sends.
  if (UNSAFE_METHODS.has(method.toUpperCase()) && !readCookie('XSRF-TOKEN')) await fetchCsrfCookie();
  const headers = baseHeaders();
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  if (options.loading !== false) startLoading();
  try {
    const response = await fetch(path, { method, headers, body: payload, credentials: 'same-origin', signal: options.signal });
    const data = await readBody(response);
    if (!response.ok) {
      handleAuthLoss(response.status);
      throw new ApiError(response.status, (data ?? {}) as ApiErrorBody);
    }
    return data as T;
  } finally {
    if (options.loading !== false) stopLoading();
  }
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => apiRequest<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('POST', path, body, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('PUT', path, body, options),
  delete: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('DELETE', path, body, options),
};

/** Multipart upload with the progress overlay (docs/product/states.md#upload); XHR because fetch has no upload progress. */
export function uploadWithProgress<T>(method: string, path: string, form: FormData, filename: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, path);
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(baseHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => reportProgress(filename, event.loaded, event.lengthComputable ? event.total : 0);
    reportProgress(filename, 0, 0);
    xhr.onload = () => {
      finishTransfer();
      const data = parseResponseText(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) resolve(data as T);
      else {
        handleAuthLoss(xhr.status);
        reject(new ApiError(xhr.status, data as ApiErrorBody));
      }
    };
    xhr.onerror = () => {
      finishTransfer();
      reject(new ApiError(0, { message: 'The upload failed: the connection was lost.' }));
    };
    xhr.send(form);
  });
}

/**
 * Downloads a file through a permission-checked POST endpoint with the progress overlay, then hands it to
 * the browser under the name from the `filename` header (docs/product/api.md#extra-files, docs/product/api.md#downloads).
 */
export async function downloadWithProgress(path: string, body: unknown, fallbackName: string): Promise<void> {
  const headers = { ...baseHeaders(), 'Content-Type': 'application/json' };
  reportProgress(fallbackName, 0, 0);
  try {
    const response = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body), credentials: 'same-origin' });
    if (!response.ok) {
      handleAuthLoss(response.status);
      throw new ApiError(response.status, (await readBody(response)) as ApiErrorBody);
    }
    const filename = decodeURIComponent(response.headers.get('filename') ?? '') || fallbackName;
    const total = Number(response.headers.get('Content-Length') ?? 0);
    const reader = response.body?.getReader();
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let loaded = 0;
    if (reader) {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value as Uint8Array<ArrayBuffer>);
        loaded += value.byteLength;
        reportProgress(filename, loaded, total);
      }
    }
    const url = URL.createObjectURL(new Blob(chunks));
    const link = document.createElement('a');
    link.href = url;
    link.download = filename;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } finally {
    finishTransfer();
  }
}

/** GET /api/user after the CSRF cookie fetch; sets the user store (null when nobody is logged in). */
export async function loadCurrentUser(): Promise<void> {
  try {
    await fetchCsrfCookie();
    const answer = await api.get<{ user: NonNullable<ReturnType<typeof $user.get>>; licenses: [] }>('/api/user', { loading: false });
    setSession(answer);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) setSession(null);
    else throw error;
  }
}

/**
 * POST /api/auth/logout after the CSRF fetch (docs/product/api.md), then forget the user here. A failure is only
 * logged (docs/product/messages.md#error-catalogue): the caller sends the user home regardless.
 */
export async function logout(): Promise<void> {
  try {
    await fetchCsrfCookie();
    await api.post('/api/auth/logout', undefined, { loading: false });
  } catch (error) {
    console.error('Logout failed', error);
  } finally {
    setSession(null);
  }
}
