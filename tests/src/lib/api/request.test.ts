// The fetch core every island uses (src/lib/api/request.ts, transfer.ts): the headers the server's
// anti-forgery and ajax-only checks read, failures as ApiError with the field errors forms show, the
// user forgotten when the session is gone, and upload progress in the loading overlay (image files replaced
// in either library included).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from '../../../../src/lib/api/request.ts';
import { CONNECTION_LOST, uploadWithProgress } from '../../../../src/lib/api/transfer.ts';
import { replaceHomeImageFile } from '../../../../src/lib/api/home.ts';
import { replaceImageFile } from '../../../../src/lib/api/page-images.ts';
import { $loading } from '../../../../src/stores/loading.ts';
import { $user, setSession, type CurrentUser } from '../../../../src/stores/session.ts';

interface SentRequest {
  url: string;
  init: RequestInit;
}

function stubFetch(answers: Response[]): SentRequest[] {
  const sent: SentRequest[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
    sent.push({ url, init });
    const answer = answers.shift();
    if (!answer) throw new Error(`unexpected request to ${url}`);
    return Promise.resolve(answer);
  });
  return sent;
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const headersOf = (request: SentRequest | undefined) => (request?.init.headers ?? {}) as Record<string, string>;

beforeEach(() => {
  vi.stubGlobal('document', { cookie: 'theme=dark; XSRF-TOKEN=token%3Dabc' });
});

afterEach(() => {
  vi.unstubAllGlobals();
  setSession(null);
});

describe('api requests', () => {
  it('send the XSRF cookie back as a header, X-Requested-With, cookies, and JSON bodies', async () => {
    const sent = stubFetch([json({ message: 'Saved.' })]);
    await expect(api.put('/api/home/update', { id: 3 })).resolves.toEqual({ message: 'Saved.' });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.init).toMatchObject({ method: 'PUT', credentials: 'same-origin', body: '{"id":3}' });
    expect(headersOf(sent[0])).toMatchObject({ 'X-XSRF-TOKEN': 'token=abc', 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' });
  });

  it('fetch the anti-forgery cookie before a write when the page has none yet', async () => {
    vi.stubGlobal('document', { cookie: '' });
    const sent = stubFetch([new Response(null, { status: 204 }), json({ message: 'Sent.' })]);
    await api.post('/api/contact', { message: 'hello' });
    expect(sent.map((request) => request.url)).toEqual(['/sanctum/csrf-cookie', '/api/contact']);
  });

  it('turn a refused answer into an ApiError carrying the message and the first error of each field', async () => {
    stubFetch([json({ message: 'The email field is required.', errors: { email: ['The email field is required.', 'second'] } }, 422)]);
    const error = await api.post('/api/auth/login', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, message: 'The email field is required.' });
    expect((error as ApiError).field('email')).toBe('The email field is required.');
    expect((error as ApiError).field('password')).toBeUndefined();
  });

  it('keep a proxy error page short instead of failing to parse it', async () => {
    stubFetch([new Response('<html>Bad gateway</html>', { status: 502 })]);
    await expect(api.get('/api/user')).rejects.toMatchObject({ status: 502, body: { message: '<html>Bad gateway</html>' } });
  });

  it('fetch a fresh anti-forgery token after a 419 and send the write once more', async () => {
    const sent = stubFetch([json({ message: 'CSRF token mismatch.' }, 419), new Response(null, { status: 204 }), json({ message: 'Sent.' })]);
    await expect(api.post('/api/contact', { message: 'hello' })).resolves.toEqual({ message: 'Sent.' });
    expect(sent.map((request) => request.url)).toEqual(['/api/contact', '/sanctum/csrf-cookie', '/api/contact']);
    expect(sent[2]?.init.body).toBe('{"message":"hello"}');
  });

  it('give up after one retry when the token is still refused', async () => {
    const sent = stubFetch([
      json({ message: 'CSRF token mismatch.' }, 419),
      new Response(null, { status: 204 }),
      json({ message: 'CSRF token mismatch.' }, 419),
    ]);
    await expect(api.post('/api/contact', {})).rejects.toMatchObject({ status: 419 });
    expect(sent).toHaveLength(3);
  });

  it('forget the signed-in user when the server says the session is gone (401, 419)', async () => {
    setSession({ user: { id: 1, name: 'Ada' } as CurrentUser, licenses: [] });
    stubFetch([json({ message: 'Unauthenticated.' }, 401)]);
    await expect(api.get('/api/admin/publish')).rejects.toBeInstanceOf(ApiError);
    expect($user.get()).toBeNull();
  });

  it('show the loading overlay while the admin waits, not for background polls', async () => {
    let shownDuringRequest = false;
    vi.stubGlobal('fetch', () => {
      shownDuringRequest = $loading.get().show;
      return Promise.resolve(json({}));
    });
    await api.get('/api/x');
    expect(shownDuringRequest).toBe(true);
    await api.get('/api/x', { loading: false });
    expect(shownDuringRequest).toBe(false);
    expect($loading.get().show).toBe(false);
  });
});

/** Just enough of XMLHttpRequest for uploadWithProgress; `finish` plays the server's side. */
class FakeXhr {
  static last: FakeXhr | undefined;
  method = '';
  url = '';
  withCredentials = false;
  headers: Record<string, string> = {};
  status = 0;
  responseText = '';
  body: unknown;
  upload: { onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
  finish(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

const probeFile = () => new File(['x'], 'probe.png', { type: 'image/png' });

/** Starts an upload (by default a new news image) against FakeXhr and returns it once its request is open. */
async function startUpload(start: () => Promise<unknown> = () => uploadWithProgress('POST', '/api/news/images', formWith(probeFile()), 'probe.png')) {
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  FakeXhr.last = undefined;
  const answer = start();
  // The request starts after the anti-forgery check, a microtask later.
  const xhr = await vi.waitFor(() => {
    const started: FakeXhr | undefined = FakeXhr.last;
    if (!started) throw new Error('not started yet');
    return started;
  });
  return { answer, xhr };
}

function formWith(file: File): FormData {
  const form = new FormData();
  form.append('file', file, file.name);
  return form;
}

describe('uploads', () => {
  it('send the same headers and report their progress in the loading overlay', async () => {
    const { answer, xhr } = await startUpload();
    expect(xhr).toMatchObject({ method: 'POST', url: '/api/news/images', withCredentials: true });
    expect(xhr.headers).toMatchObject({ 'X-XSRF-TOKEN': 'token=abc', 'X-Requested-With': 'XMLHttpRequest' });
    xhr.upload.onprogress?.({ loaded: 250, total: 1000, lengthComputable: true });
    expect($loading.get()).toMatchObject({ show: true, showDetails: true, progress: 25, filesize: 1000, filename: 'probe.png' });
    xhr.finish(201, { message: 'Image uploaded.' });
    await expect(answer).resolves.toEqual({ message: 'Image uploaded.' });
    expect($loading.get().show).toBe(false);
  });

  it("replace a page image's and a home image's file at the one path both libraries share", async () => {
    const file = probeFile();
    const cases: Array<[() => Promise<unknown>, string]> = [
      [() => replaceImageFile('news', 3, file), '/api/news/image/update-image/3'],
      [() => replaceHomeImageFile(5, file), '/api/home/image/update-image/5'],
    ];
    for (const [start, url] of cases) {
      const { answer, xhr } = await startUpload(start);
      expect(xhr).toMatchObject({ method: 'POST', url });
      expect((xhr.body as FormData).get('file')).toMatchObject({ name: 'probe.png' });
      xhr.finish(200, { message: 'Image replaced.', image: { id: 1 } });
      await expect(answer).resolves.toEqual({ message: 'Image replaced.', image: { id: 1 } });
    }
  });

  it('reject a refused upload with its field errors, and a broken connection with status 0', async () => {
    const refused = await startUpload();
    refused.xhr.finish(422, { message: 'The file must be an image.', errors: { file: ['The file must be an image.'] } });
    const error = (await refused.answer.catch((caught: unknown) => caught)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.field('file')).toBe('The file must be an image.');

    const broken = await startUpload();
    broken.xhr.onerror?.();
    await expect(broken.answer).rejects.toMatchObject({ status: 0, message: CONNECTION_LOST });
    expect($loading.get().show).toBe(false);
  });
});
