// Who may download what (docs/product/roles.md, issue 6 item 2), checked on every request by id, through both the
// POST form the spec's client uses and the GET-able form for browsers and `curl -C -`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createUser, login, type TestClient } from '../../../helpers/auth.ts';
import { createReleaseDirect, patternBytes } from '../../../helpers/downloads.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';

let ctx: TestContext;
const clients = {} as Record<'anonymous' | 'unverified' | 'verified' | 'admin', TestClient>;
const content = patternBytes(4321, 7);
const ids = { downloadable: 0, notDownloadable: 0, missing: 999_999 };

beforeAll(async () => {
  ctx = createTestContext();
  await createUser(ctx, { email: 'admin@example.com', role: 'admin' });
  await createUser(ctx, { email: 'verified@example.com' });
  await createUser(ctx, { email: 'unverified@example.com', verified: false });
  clients.anonymous = createClient(ctx.app);
  await clients.anonymous.fetchCsrfCookie();
  clients.unverified = await login(ctx.app, 'unverified@example.com');
  clients.verified = await login(ctx.app, 'verified@example.com');
  clients.admin = await login(ctx.app, 'admin@example.com');
  ids.downloadable = createReleaseDirect(ctx, { downloadable: true, file: { name: 'current.bin', content } }).id;
  ids.notDownloadable = createReleaseDirect(ctx, { downloadable: false, file: { name: 'old.bin', content } }).id;
});
afterAll(() => ctx.cleanup());

type Who = keyof typeof clients;
type Which = keyof typeof ids;

const ANONYMOUS = { status: 401, message: 'You must be logged in to use download' };
const UNVERIFIED = { status: 403, message: 'Only verified user can use download!' };
const UNAVAILABLE = { status: 403, message: 'This release is not available for download.' };

const matrix: [Who, Which, { status: number; message?: string }][] = [
  ['anonymous', 'downloadable', ANONYMOUS],
  ['anonymous', 'notDownloadable', ANONYMOUS],
  ['anonymous', 'missing', ANONYMOUS],
  ['unverified', 'downloadable', UNVERIFIED],
  ['unverified', 'notDownloadable', UNVERIFIED],
  ['unverified', 'missing', UNVERIFIED],
  ['verified', 'downloadable', { status: 200 }],
  // The same answer for "exists but not downloadable" and "does not exist": guessing ids reveals nothing.
  ['verified', 'notDownloadable', UNAVAILABLE],
  ['verified', 'missing', UNAVAILABLE],
  ['admin', 'downloadable', { status: 200 }],
  ['admin', 'notDownloadable', { status: 200 }],
  ['admin', 'missing', { status: 404, message: 'This release does not exist.' }],
];

const routes = {
  'POST /api/downloads/download': (client: TestClient, id: number) => client.request('POST', '/api/downloads/download', { id }),
  'GET /api/downloads/file/{id}': (client: TestClient, id: number) => client.request('GET', `/api/downloads/file/${id}`),
};

describe.each(Object.entries(routes))('%s', (_name, send) => {
  it.each(matrix)('%s user, %s release → %o', async (who, which, expected) => {
    const response = await send(clients[who], ids[which]);
    expect(response.status).toBe(expected.status);
    if (expected.status === 200) {
      expect(Buffer.from(await response.arrayBuffer()).equals(content)).toBe(true);
      expect(response.headers.get('content-length')).toBe(String(content.length));
    } else {
      expect(await response.json()).toEqual({ message: expected.message });
      expect(response.headers.get('content-disposition')).toBeNull();
    }
  });
});

describe('download request checks', () => {
  it('checks the session before the body: an anonymous POST with a bad id still gets 401', async () => {
    const response = await clients.anonymous.request('POST', '/api/downloads/download', { id: 'x' });
    expect(response.status).toBe(401);
  });

  it('answers 422 with an id error for a verified user who sends no usable id', async () => {
    const response = await clients.verified.request('POST', '/api/downloads/download', { id: 'abc' });
    expect(response.status).toBe(422);
    const answer = (await response.json()) as { errors: Record<string, string[]> };
    expect(Object.keys(answer.errors)).toEqual(['id']);
  });

  it('refuses the POST form without the XSRF token (419), like every other write', async () => {
    const response = await clients.verified.request('POST', '/api/downloads/download', { id: ids.downloadable }, { headers: { 'X-XSRF-TOKEN': null } });
    expect(response.status).toBe(419);
  });

  it('stops a user whose e-mail verification was taken back, at once', async () => {
    const user = await createUser(ctx, { email: 'later-unverified@example.com' });
    const client = await login(ctx.app, user.email);
    expect((await client.request('GET', `/api/downloads/file/${ids.downloadable}`)).status).toBe(200);
    ctx.db.$client.prepare('UPDATE users SET email_verified_at = NULL WHERE id = ?').run(user.id);
    const response = await client.request('GET', `/api/downloads/file/${ids.downloadable}`);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message: 'Only verified user can use download!' });
  });

  it('does not let GET /{x} swallow the file route, nor serve files from it', async () => {
    const response = await clients.anonymous.request('GET', `/api/downloads/${ids.notDownloadable}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/json/);
    expect((await clients.anonymous.request('GET', '/api/downloads/file/abc')).status).toBe(404);
  });
});
