// Release files on both stores (issue 30; docs/decisions/0050-object-storage.md): the same uploads, the same
// checks before a download (who may have which release), then the bytes with their ranges from the local
// store, or a 302 to a presigned link of the bucket (s3rver started here), which answers ranges itself; a
// download counts once per user, file and day either way; deletes remove the row, then the object; an upload
// cut half way leaves no object and no row; the update API's signed links lead to the same bytes whose
// SHA-512 latest.yml announces, and the Sparkle signature made from the store's bytes verifies.
import crypto, { createPublicKey, verify } from 'node:crypto';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { releaseDownloads } from '../../../../server/db/schema.ts';
import { getReleaseWithFiles, listDownloadItems } from '../../../../server/features/downloads/queries.ts';
import { signFilesSoon } from '../../../../server/features/downloads/digests.ts';
import { DOWNLOAD_LINK_TYPE, type DownloadLink } from '../../../../common/download-link.ts';
import { createUser, login, type LoggedInClient } from '../../../helpers/auth.ts';
import { patternBytes, releaseForm, sha512Hex, type ReleaseFields, type ReleaseView } from '../../../helpers/downloads.ts';
import { startTestBucket, type TestBucket } from '../../../helpers/s3-server.ts';
import { runMigration } from '../../../../scripts/storage.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';
import { filesUnder } from '../../content/helpers.ts';
import { storedKeys } from '../../../helpers/store-contents.ts';

let bucket: TestBucket;
beforeEach(async () => {
  bucket = await startTestBucket();
});
afterEach(() => bucket.close());

/** What each store answered a refused download: the same on both. */
const refusals = new Map<string, unknown>();

describe.each([
  ['local', () => ({})],
  ['s3', () => bucket.env],
] as const)('release files on the %s store', (kind, env) => {
  let ctx: TestContext;
  let admin: LoggedInClient;
  let user: LoggedInClient;
  beforeEach(async () => {
    ctx = createTestContext({ env: { UPLOAD_MAX_BYTES: String(4 * 1024 * 1024), ...env() } });
    await createUser(ctx, { email: 'admin@example.com', role: 'admin' });
    await createUser(ctx, { email: 'user@example.com' });
    admin = await login(ctx.app, 'admin@example.com');
    user = await login(ctx.app, 'user@example.com');
  });
  afterEach(() => ctx.cleanup());

  async function createRelease(fields: Record<string, string>, file: { name: string; content: Buffer }): Promise<ReleaseView> {
    const answer = await admin.request('POST', '/api/downloads/store', releaseForm({ title: 'Suite', downloadable: '1', ...fields } as ReleaseFields, file));
    expect(answer.status).toBe(201);
    return ((await answer.json()) as { release: ReleaseView }).release;
  }

  async function addFile(id: number, platform: string, arch: string, file: { name: string; content: Buffer }): Promise<{ id: number; sha512: string }> {
    const form = new FormData();
    form.append('platform', platform);
    form.append('arch', arch);
    form.append('file', new File([Buffer.from(file.content)], file.name));
    const answer = await admin.request('POST', `/api/downloads/${id}/files`, form);
    expect(answer.status).toBe(201);
    return ((await answer.json()) as { file: { id: number; sha512: string } }).file;
  }

  /** The bytes behind a download answer (of `range`, when given): its own, or those of the bucket's link. */
  async function bytesOf(answer: Response, filename: string, range?: string): Promise<{ status: number; bytes: Buffer }> {
    if (kind === 'local') {
      expect(answer.status).toBe(range ? 206 : 200);
      expect(answer.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent(filename)}`);
      return { status: answer.status, bytes: Buffer.from(await answer.arrayBuffer()) };
    }
    expect(answer.status).toBe(302);
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    const location = new URL(answer.headers.get('location') ?? '');
    expect(location.href.startsWith(`${bucket.endpoint}/${bucket.bucket}/private/downloads/`)).toBe(true);
    expect(location.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(location.searchParams.get('response-content-disposition')).toContain(encodeURIComponent(filename));
    const fromBucket = await fetch(location, range ? { headers: { Range: range } } : {});
    expect(fromBucket.status).toBe(range ? 206 : 200);
    return { status: fromBucket.status, bytes: Buffer.from(await fromBucket.arrayBuffer()) };
  }

  it('stores both files of a release, and serves each (whole and a range) to the admin and an allowed user, counted once a day', async () => {
    const first = { name: 'Suite Setup 5.exe', content: patternBytes(300_001, 1) };
    const second = { name: 'suite-5-mac.zip', content: patternBytes(200_003, 2) };
    const release = await createRelease({}, first);
    const added = await addFile(release.id, 'macos', 'universal', second);
    const rows = getReleaseWithFiles(ctx.db, release.id)?.files ?? [];
    expect(rows).toHaveLength(2);
    expect(await storedKeys(ctx.storage, 'private/downloads/')).toEqual(rows.map((row) => `private/downloads/${row.stored_name}`).sort());
    expect(added.sha512).toBe(sha512Hex(second.content));

    const files = [
      { id: rows[0]!.id, ...first },
      { id: added.id, ...second },
    ];
    for (const client of [admin, user]) {
      for (const file of files) {
        const url = `/api/downloads/file/${release.id}/${file.id}`;
        expect((await bytesOf(await client.request('GET', url), file.name)).bytes.equals(file.content)).toBe(true);
        const ranged = await bytesOf(await client.request('GET', url, undefined, { headers: { Range: 'bytes=1000-1999' } }), file.name, 'bytes=1000-1999');
        expect(ranged.bytes.equals(file.content.subarray(1000, 2000))).toBe(true);
      }
      // The POST form our pages use gives the first file.
      const posted = await client.request('POST', '/api/downloads/download', { id: release.id });
      expect((await bytesOf(posted, first.name)).bytes.equals(first.content)).toBe(true);
    }
    // Two downloaders, two files, each once for the day: a range or the link asked again is the same download.
    expect(ctx.db.select().from(releaseDownloads).all()).toHaveLength(4);
    // A HEAD hands out nothing and counts nothing.
    ctx.db.delete(releaseDownloads).run();
    expect((await user.request('HEAD', `/api/downloads/file/${release.id}`)).status).toBe(kind === 'local' ? 200 : 302);
    expect(ctx.db.select().from(releaseDownloads).all()).toHaveLength(0);
  });

  it('refuses a user without the license the same way, and a visitor, before the store is asked', async () => {
    const release = await createRelease({ entitlement: 'pro' }, { name: 'pro.exe', content: patternBytes(5000, 3) });
    const refused = await user.request('GET', `/api/downloads/file/${release.id}`);
    const anonymous = await ctx.app.request(`/api/downloads/file/${release.id}`);
    const answers = { user: { status: refused.status, body: await refused.json() }, anonymous: { status: anonymous.status, body: await anonymous.json() } };
    expect(answers.user.status).toBe(403);
    expect(answers.anonymous.status).toBe(401);
    refusals.set(kind, answers);
    expect(ctx.db.select().from(releaseDownloads).all()).toHaveLength(0);
  });

  it('gives our own pages the link itself on request (bucket), or the bytes (local)', async () => {
    const file = { name: 'data.bin', content: patternBytes(100_000, 4) };
    const release = await createRelease({}, file);
    const answer = await user.request('POST', '/api/downloads/download', { id: release.id }, { headers: { Accept: DOWNLOAD_LINK_TYPE } });
    if (kind === 'local') {
      expect((await bytesOf(answer, file.name)).bytes.equals(file.content)).toBe(true);
      return;
    }
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe(DOWNLOAD_LINK_TYPE);
    const link = (await answer.json()) as DownloadLink;
    expect(link).toMatchObject({ filename: 'data.bin', expires_in: 300 });
    expect(Buffer.from(await (await fetch(link.url)).arrayBuffer()).equals(file.content)).toBe(true);
    expect(ctx.db.select().from(releaseDownloads).all()).toHaveLength(1);
  });

  it('removes the object after the row: a file, a replaced file, then the whole release', async () => {
    const release = await createRelease({}, { name: 'a.exe', content: patternBytes(4000, 5) });
    const added = await addFile(release.id, 'linux', 'x64', { name: 'b.AppImage', content: patternBytes(4000, 6) });
    expect(await storedKeys(ctx.storage, 'private/downloads/')).toHaveLength(2);
    expect((await admin.request('DELETE', `/api/downloads/${release.id}/files/${added.id}`)).status).toBe(200);
    const [left] = getReleaseWithFiles(ctx.db, release.id)?.files ?? [];
    expect(await storedKeys(ctx.storage, 'private/downloads/')).toEqual([`private/downloads/${left?.stored_name}`]);

    const replaced = await admin.request(
      'POST',
      `/api/downloads/update/${release.id}`,
      releaseForm({} as ReleaseFields, { name: 'a2.exe', content: patternBytes(4100, 7) }),
    );
    expect(replaced.status).toBe(200);
    const [now] = getReleaseWithFiles(ctx.db, release.id)?.files ?? [];
    expect(now?.stored_name).not.toBe(left?.stored_name);
    expect(await storedKeys(ctx.storage, 'private/downloads/')).toEqual([`private/downloads/${now?.stored_name}`]);

    expect((await admin.request('DELETE', '/api/downloads/delete', { id: release.id })).status).toBe(200);
    expect(await storedKeys(ctx.storage, 'private/downloads/')).toEqual([]);
  });

  it('leaves no object, no row and no temp file when the upload is cut half way', async () => {
    const head =
      '--B\r\nContent-Disposition: form-data; name="title"\r\n\r\nCut\r\n--B\r\nContent-Disposition: form-data; name="downloadable"\r\n\r\n1\r\n' +
      '--B\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\nContent-Type: application/octet-stream\r\n\r\n';
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode(head));
        else if (sent < 6) controller.enqueue(crypto.randomBytes(256 * 1024));
        else controller.error(new Error('the connection broke'));
        sent++;
      },
    });
    const answer = await Promise.resolve(
      ctx.app.request('/api/downloads/store', {
        method: 'POST',
        headers: { Cookie: admin.cookieHeader, 'X-XSRF-TOKEN': admin.xsrf ?? '', 'Content-Type': 'multipart/form-data; boundary=B' },
        body,
        duplex: 'half',
      } as RequestInit),
    ).catch(() => null);
    if (answer) expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(listDownloadItems(ctx.db)).toEqual([]);
    expect(await storedKeys(ctx.storage, 'private/')).toEqual([]);
    expect(filesUnder(path.join(ctx.config.privateFilesDir, '.tmp'))).toEqual([]);
  });

  it("leads the update API's signed links to the bytes latest.yml and the appcast describe", async () => {
    const win = { name: 'suite-2.0.0-win-x64.exe', content: patternBytes(150_001, 8) };
    const mac = { name: 'suite-2.0.0-mac.zip', content: patternBytes(120_007, 9) };
    const release = await createRelease({ version: '2.0.0', channel: 'stable' }, { name: 'suite-2.0.0-any.zip', content: patternBytes(3000, 10) });
    await addFile(release.id, 'windows', 'x64', win);
    await addFile(release.id, 'macos', 'universal', mac);
    // The signatures the upload started in the background, made from the store's bytes.
    await signFilesSoon(ctx);

    const yml = await ctx.app.request('/api/updates/v1/stable/latest.yml');
    expect(yml.status).toBe(200);
    const info = parse(await yml.text()) as { version: string; files: Array<{ url: string; sha512: string; size: number }> };
    expect(info.version).toBe('2.0.0');
    expect(info.files.length).toBeGreaterThan(0);
    for (const entry of info.files) {
      const answer = await ctx.app.request(entry.url);
      let bytes: Buffer;
      if (kind === 's3') {
        expect(answer.status).toBe(302);
        const location = answer.headers.get('location') ?? '';
        expect(location.startsWith(`${bucket.endpoint}/${bucket.bucket}/private/downloads/`)).toBe(true);
        bytes = Buffer.from(await (await fetch(location)).arrayBuffer());
      } else {
        expect(answer.status).toBe(200);
        bytes = Buffer.from(await answer.arrayBuffer());
      }
      expect(bytes.length).toBe(entry.size);
      expect(crypto.createHash('sha512').update(bytes).digest('base64')).toBe(entry.sha512);
    }
    expect(info.files.some((entry) => entry.size === win.content.length)).toBe(true);

    const appcast = await ctx.app.request('/api/updates/v1/stable/appcast.xml');
    expect(appcast.status).toBe(200);
    const signature = /sparkle:edSignature="([^"]+)"/.exec(await appcast.text())?.[1] ?? '';
    const key = ctx.updateKeyring().current;
    expect(verify(null, mac.content, createPublicKey({ key: { ...key.publicJwk }, format: 'jwk' }), Buffer.from(signature, 'base64'))).toBe(true);
  });
});

describe('release files from the bucket', () => {
  let ctx: TestContext;
  beforeEach(() => {
    ctx = createTestContext({ env: bucket.env });
  });
  afterEach(() => ctx.cleanup());

  it('leave no row and no temp file when the bucket fails during the upload', async () => {
    await createUser(ctx, { email: 'admin@example.com', role: 'admin' });
    const admin = await login(ctx.app, 'admin@example.com');
    await bucket.close();
    const answer = await admin.request(
      'POST',
      '/api/downloads/store',
      releaseForm({ title: 'T', downloadable: '1' } as ReleaseFields, { name: 'a.bin', content: patternBytes(50_000, 11) }),
    );
    expect(answer.status).toBe(500);
    expect(listDownloadItems(ctx.db)).toEqual([]);
    expect(filesUnder(path.join(ctx.config.privateFilesDir, '.tmp'))).toEqual([]);
    bucket = await startTestBucket();
  });
});

describe('release files moved into the bucket by `npm run storage -- migrate --to s3`', () => {
  it('download from the bucket with the bytes and digests uploaded to the local store', async () => {
    const local = createTestContext();
    try {
      await createUser(local, { email: 'user@example.com' });
      await createUser(local, { email: 'admin@example.com', role: 'admin' });
      const admin = await login(local.app, 'admin@example.com');
      const file = { name: 'Suite 6.exe', content: patternBytes(250_000, 12) };
      const created = await admin.request('POST', '/api/downloads/store', releaseForm({ title: 'Suite 6', downloadable: '1' }, file));
      const { release } = (await created.json()) as { release: ReleaseView };

      const migrated = await runMigration('s3', () => {}, { DATA_DIR: local.config.dataDir, ...bucket.env });
      expect(migrated).toMatchObject({ complete: true, failed: [] });

      // The same DATA_DIR (database included), now with STORAGE=s3.
      const moved = createTestContext({ env: { DATA_DIR: local.config.dataDir, ...bucket.env } });
      try {
        const [row] = getReleaseWithFiles(moved.db, release.id)?.files ?? [];
        expect(await storedKeys(moved.storage, 'private/downloads/')).toEqual([`private/downloads/${row?.stored_name}`]);
        const user = await login(moved.app, 'user@example.com');
        const answer = await user.request('GET', `/api/downloads/file/${release.id}`);
        expect(answer.status).toBe(302);
        const bytes = Buffer.from(await (await fetch(answer.headers.get('location') ?? '')).arrayBuffer());
        expect(bytes.equals(file.content)).toBe(true);
        expect(row?.sha512).toBe(sha512Hex(bytes));
      } finally {
        moved.cleanup();
      }
    } finally {
      local.cleanup();
    }
  });
});

describe('a refused download', () => {
  it('gets the same answer from both stores', () => {
    expect(refusals.size).toBe(2);
    expect(refusals.get('s3')).toEqual(refusals.get('local'));
  });
});
