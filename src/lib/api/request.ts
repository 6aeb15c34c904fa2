// The one fetch core of every island and page script: credentials and X-Requested-With on every request,
// the anti-forgery cookie echoed as X-XSRF-TOKEN (fetched first when a write finds none), failures as one
// ApiError with the server's `{ message, errors }` body, and the user forgotten whenever the server
// answers 401 or 419 (docs/content-api.md, 'Common rules'). The calls per feature live beside this file.
import { readCookie } from '../cookies.ts';
import { $user, setSession } from '../../stores/session.ts';
import { startLoading, stopLoading } from '../../stores/loading.ts';

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
  /** First message for a field (forms show only the first). */
  field(name: string): string | undefined {
    return this.body.errors?.[name]?.[0];
  }
}

export interface RequestOptions {
  /** Show the full-screen loading modal while the request runs (on by default: the admin asked for it). */
  loading?: boolean;
  signal?: AbortSignal;
}

export const XSRF_COOKIE = 'XSRF-TOKEN';

export async function fetchCsrfCookie(): Promise<void> {
  await fetch('/sanctum/csrf-cookie', { credentials: 'same-origin', headers: { 'X-Requested-With': 'XMLHttpRequest' } });
}

/** The headers every request of ours carries; the XSRF header only once the cookie exists. */
export function baseHeaders(): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
  const xsrf = readCookie(XSRF_COOKIE);
  if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
  return headers;
}

/** A failed answer's status and body as the ApiError callers catch; a lost session forgets the user here. */
export function failedAnswer(status: number, body: unknown): ApiError {
  if ((status === 401 || status === 419) && $user.get()) setSession(null);
  const shaped = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as ApiErrorBody) : {};
  return new ApiError(status, shaped);
}

/** An answer's text as JSON; a proxy's HTML error page becomes a short message instead of a parse error. */
export function parseAnswerText(text: string): unknown {
  if (!text) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { message: text.slice(0, 200) };
  }
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Fetches the XSRF cookie before a write when there is none yet (a reader of a static page has none). */
export async function ensureXsrfCookie(method: string): Promise<void> {
  if (UNSAFE_METHODS.has(method.toUpperCase()) && !readCookie(XSRF_COOKIE)) await fetchCsrfCookie();
}

function encodeBody(body: unknown, headers: Record<string, string>): BodyInit | undefined {
  if (body instanceof FormData) return body;
  if (body === undefined) return undefined;
  headers['Content-Type'] = 'application/json';
  return JSON.stringify(body);
}

export async function apiRequest<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  await ensureXsrfCookie(method);
  const send = () => {
    const headers = baseHeaders();
    const payload = encodeBody(body, headers);
    return fetch(path, { method, headers, body: payload, credentials: 'same-origin', signal: options.signal });
  };
  if (options.loading !== false) startLoading();
  try {
    let response = await send();
    // The token is bound to the browser's session (server/auth/xsrf-token.ts): when the session ended
    // without the server seeing it (the browser dropped its cookie), the token no longer fits. A 419 changed
    // nothing, so fetch a token for the browser as it is now and send once more.
    if (response.status === 419 && UNSAFE_METHODS.has(method.toUpperCase())) {
      await fetchCsrfCookie();
      response = await send();
    }
    const data = parseAnswerText(await response.text());
    if (!response.ok) throw failedAnswer(response.status, data);
    return data as T;
  } finally {
    if (options.loading !== false) stopLoading();
  }
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => apiRequest<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('POST', path, body, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('PUT', path, body, options),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('PATCH', path, body, options),
  delete: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('DELETE', path, body, options),
};
