// Releases as admins manage them and everyone reads them (docs/product/downloads.md#downloads-page, docs/product/api.md#downloads): the multipart
// store/update, per-field validation, is_current exclusivity, delete, the public list and detail.
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getReleaseWithFiles, listDownloadItems } from '../../../../server/features/downloads/queries.ts';
import { exportSnapshot } from '../../../../server/publish/export-snapshot.ts';
import { createClient, createUser, login, type LoggedInClient } from '../../../helpers/auth.ts';
import {
  createReleaseDirect,
  filesOnDisk,
  patternBytes,
  releaseFilePath,
  releaseForm,
  sha256Hex,
  type ReleaseFields,
  type ReleaseView,
} from '../../../helpers/downloads.ts';
import { createRecordingPublisher, createTestContext, type RecordingPublisher, type TestContext } from '../../../helpers/test-context.ts';

let ctx: TestContext;
let publisher: RecordingPublisher;
let admin: LoggedInClient;

beforeEach(async () => {
  publisher = createRecordingPublisher();
  ctx = createTestContext({ publisher });
  await createUser(ctx, { email: 'admin@example.com', role: 'admin' });
  await createUser(ctx, { email: 'user@example.com' });
  admin = await login(ctx.app, 'admin@example.com');
});
afterEach(() => ctx.cleanup());

interface Answer {
  message: string;
  release: ReleaseView;
  errors?: Record<string, string[]>;
}

async function store(fields: ReleaseFields, file?: { name: string; content: Buffer | string }) {
  const response = await admin.request('POST', '/api/downloads/store', releaseForm(fields, file));
  return { status: response.status, answer: (await response.json()) as Answer };
}

async function update(id: number, fields: ReleaseFields, file?: { name: string; content: Buffer | string }) {
  const response = await admin.request('POST', `/api/downloads/update/${id}`, releaseForm(fields, file));
  return { status: response.status, answer: (await response.json()) as Answer };
}

async function sections(client = createClient(ctx.app)): Promise<ReleaseView[]> {
  const response = await client.request('GET', '/api/downloads/getSections');
  expect(response.status).toBe(200);
  return ((await response.json()) as { sections: ReleaseView[] }).sections;
}

describe('store', () => {
  it('creates a release with its file: stored under a random name, SHA-256 of the bytes, publish scheduled', async () => {
    const content = patternBytes(70_000, 3);
    const { status, answer } = await store(
      { title: 'Inspector 4', body: '**new**', release: '4.0.0', is_current: '1', downloadable: '1' },
      { name: 'inspector 4 é.exe', content },
    );
    expect(status).toBe(201);
    expect(answer.message).toBe('Release created.');
    expect(answer.release).toMatchObject({
      title: 'Inspector 4',
      body: '**new**',
      release: '4.0.0',
      is_current: 1,
      downloadable: 1,
      download_url: 'inspector 4 é.exe',
      filename: 'inspector 4 é.exe',
      has_file: true,
      size: content.length,
      sha256: sha256Hex(content),
      file_url: `/api/downloads/file/${answer.release.id}`,
      download_count: 0,
    });
    expect(answer.release).not.toHaveProperty('stored_name');

    const row = getReleaseWithFiles(ctx.db, answer.release.id)?.files[0];
    const onDisk = fs.readFileSync(releaseFilePath(ctx.config, row?.stored_name ?? ''));
    expect(onDisk.equals(content)).toBe(true);
    expect(sha256Hex(onDisk)).toBe(row?.sha256);
    expect(row?.stored_name).not.toContain('inspector');
    expect(filesOnDisk(ctx.config)).toHaveLength(1);
    expect(publisher.reasons).toEqual([`download ${answer.release.id} created`]);
  });

  it('allows a release without a file only when it is not downloadable', async () => {
    const ok = await store({ title: 'Announcement only', release: '', downloadable: '0' });
    expect(ok.status).toBe(201);
    expect(ok.answer.release).toMatchObject({
      has_file: false,
      filename: null,
      download_url: null,
      size: 0,
      sha256: '',
      file_url: null,
      release: '0',
      is_current: 0,
    });

    const refused = await store({ title: 'Missing file', downloadable: '1' });
    expect(refused.status).toBe(422);
    expect(refused.answer.errors).toEqual({ file: ['The file field is required when the release is downloadable.'] });
  });

  it('treats the empty part of a file input left empty as no file', async () => {
    const form = releaseForm({ title: 'No file chosen' });
    form.append('file', new File([], ''));
    const response = await admin.request('POST', '/api/downloads/store', form);
    expect(response.status).toBe(201);
    expect(filesOnDisk(ctx.config)).toEqual([]);
  });

  it.each([
    ['title', { title: '   ' }, 'The title field is required.'],
    ['title', { title: 'x'.repeat(256) }, 'The title field must not be greater than 255 characters.'],
    ['body', { title: 't', body: 'x'.repeat(200_001) }, 'The body field must not be greater than 200000 characters.'],
    ['release', { title: 't', release: '1'.repeat(51) }, 'The release field must not be greater than 50 characters.'],
    ['is_current', { title: 't', is_current: 'maybe' }, 'The is current field must be true or false.'],
    ['downloadable', { title: 't', downloadable: '2' }, 'The downloadable field must be true or false.'],
  ] as const)('answers 422 for a bad %s, storing nothing', async (field, fields, message) => {
    const { status, answer } = await store(fields, { name: 'f.bin', content: 'data' });
    expect(status).toBe(422);
    expect(answer.message).toBe(message);
    expect(answer.errors).toEqual({ [field]: [message] });
    expect(listDownloadItems(ctx.db)).toEqual([]);
    expect(filesOnDisk(ctx.config)).toEqual([]);
    expect(publisher.reasons).toEqual([]);
  });

  it('answers 422 on file for an empty file, two files, or text in the file field', async () => {
    const empty = await store({ title: 't' }, { name: 'empty.bin', content: '' });
    expect(empty.answer.errors).toEqual({ file: ['The file must not be empty.'] });

    const two = releaseForm({ title: 't' }, { name: 'a.bin', content: 'a' });
    two.append('file', new File(['b'], 'b.bin'));
    const twoAnswer = (await (await admin.request('POST', '/api/downloads/store', two)).json()) as Answer;
    expect(twoAnswer.errors).toEqual({ file: ['Only one file may be uploaded.'] });

    const text = releaseForm({ title: 't' });
    text.append('file', 'C:\\secret.txt');
    const textAnswer = (await (await admin.request('POST', '/api/downloads/store', text)).json()) as Answer;
    expect(textAnswer.errors).toEqual({ file: ['The file field must be a file.'] });

    expect(listDownloadItems(ctx.db)).toEqual([]);
    expect(filesOnDisk(ctx.config)).toEqual([]);
  });

  it('reports every bad field at once, the first message as the message', async () => {
    const { status, answer } = await store({ title: '', is_current: 'x', downloadable: '1' });
    expect(status).toBe(422);
    expect(Object.keys(answer.errors ?? {}).sort()).toEqual(['is_current', 'title']);
    expect(answer.message).toBe('The title field is required.');
  });

  it('answers 415 for a body that is not multipart/form-data', async () => {
    const response = await admin.request('POST', '/api/downloads/store', { title: 'json' });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ message: 'Send the release as multipart/form-data.' });
  });

  it('answers 400 for a malformed multipart body, leaving nothing behind', async () => {
    const response = await admin.request('POST', '/api/downloads/store', '--B\r\nContent-Disposition: form-data; name="file"; filename="x.bin"\r\n\r\nno end', {
      headers: { 'Content-Type': 'multipart/form-data; boundary=B' },
    });
    expect(response.status).toBe(400);
    expect(filesOnDisk(ctx.config)).toEqual([]);
    expect(listDownloadItems(ctx.db)).toEqual([]);
  });
});

describe('writes are for admins only', () => {
  it('answers 401 to visitors and 403 to users, changing nothing', async () => {
    const anonymous = createClient(ctx.app);
    await anonymous.fetchCsrfCookie();
    const user = await login(ctx.app, 'user@example.com');
    const existing = createReleaseDirect(ctx, { title: 'Keep me' });
    const before = filesOnDisk(ctx.config);

    for (const [client, status] of [
      [anonymous, 401],
      [user, 403],
    ] as const) {
      const form = () => releaseForm({ title: 'Hijack', downloadable: '1' }, { name: 'evil.exe', content: 'MZ' });
      expect((await client.request('POST', '/api/downloads/store', form())).status).toBe(status);
      expect((await client.request('POST', `/api/downloads/update/${existing.id}`, form())).status).toBe(status);
      expect((await client.request('DELETE', '/api/downloads/delete', { id: existing.id })).status).toBe(status);
    }
    expect(listDownloadItems(ctx.db)).toEqual([existing]);
    expect(filesOnDisk(ctx.config)).toEqual(before);
    expect(publisher.reasons).toEqual([]);
  });
});

describe('update', () => {
  it('changes only the fields sent and keeps the file when none is sent', async () => {
    const created = (await store({ title: 'Old', body: 'b', release: '1.0', downloadable: '1' }, { name: 'one.bin', content: 'one' })).answer.release;
    const { status, answer } = await update(created.id, { title: 'New' });
    expect(status).toBe(200);
    expect(answer.message).toBe('Release updated.');
    expect(answer.release).toMatchObject({
      id: created.id,
      title: 'New',
      body: 'b',
      release: '1.0',
      downloadable: 1,
      filename: 'one.bin',
      sha256: created.sha256,
    });
    expect(publisher.reasons).toEqual([`download ${created.id} created`, `download ${created.id} updated`]);
  });

  it('replaces the file: new bytes and hash, the old file removed', async () => {
    const created = (await store({ title: 'R', downloadable: '1' }, { name: 'one.bin', content: 'one' })).answer.release;
    const oldPath = releaseFilePath(ctx.config, getReleaseWithFiles(ctx.db, created.id)?.files[0]?.stored_name ?? '');
    const { answer } = await update(created.id, { title: 'R' }, { name: 'two.bin', content: 'two!' });
    expect(answer.release).toMatchObject({ filename: 'two.bin', size: 4, sha256: sha256Hex('two!') });
    expect(fs.existsSync(oldPath)).toBe(false);
    const files = filesOnDisk(ctx.config);
    expect(files).toHaveLength(1);
    expect(fs.readFileSync(files[0] ?? '', 'utf8')).toBe('two!');
  });

  it('refuses to make a release without a file downloadable, and 404s for a missing release', async () => {
    const created = (await store({ title: 'Text only' })).answer.release;
    const refused = await update(created.id, { downloadable: '1' });
    expect(refused.status).toBe(422);
    expect(refused.answer.errors).toEqual({ file: ['The file field is required when the release is downloadable.'] });
    expect(getReleaseWithFiles(ctx.db, created.id)?.downloadable).toBe(0);

    const withFile = await update(created.id, { downloadable: '1' }, { name: 'late.bin', content: 'late' });
    expect(withFile.answer.release).toMatchObject({ downloadable: 1, has_file: true });

    const missing = await update(9999, { title: 'x' }, { name: 'f.bin', content: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.answer.message).toBe('This release does not exist.');
    expect(filesOnDisk(ctx.config)).toHaveLength(1);
  });

  it('validates like store', async () => {
    const created = (await store({ title: 'R' })).answer.release;
    const { status, answer } = await update(created.id, { title: ' ', is_current: 'perhaps' }, { name: 'x.bin', content: 'x' });
    expect(status).toBe(422);
    expect(Object.keys(answer.errors ?? {}).sort()).toEqual(['is_current', 'title']);
    expect(filesOnDisk(ctx.config)).toEqual([]);
  });
});

describe('is_current', () => {
  it('is held by one release at a time, whichever write sets it', async () => {
    const a = (await store({ title: 'A', is_current: '1' })).answer.release;
    const b = (await store({ title: 'B', is_current: 'true' })).answer.release;
    const current = () =>
      listDownloadItems(ctx.db)
        .filter((item) => item.is_current === 1)
        .map((item) => item.title);
    expect(current()).toEqual(['B']);
    await update(a.id, { is_current: 'on' });
    expect(current()).toEqual(['A']);
    await update(b.id, { is_current: '0' });
    expect(current()).toEqual(['A']);
  });
});

describe('delete', () => {
  it('removes the row and then its file, and schedules a publish', async () => {
    const created = (await store({ title: 'Gone soon', downloadable: '1' }, { name: 'g.bin', content: 'gone' })).answer.release;
    const file = releaseFilePath(ctx.config, getReleaseWithFiles(ctx.db, created.id)?.files[0]?.stored_name ?? '');
    const response = await admin.request('DELETE', '/api/downloads/delete', { id: created.id });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: 'Release deleted.', id: created.id });
    expect(getReleaseWithFiles(ctx.db, created.id)).toBeUndefined();
    expect(fs.existsSync(file)).toBe(false);
    expect(publisher.reasons.at(-1)).toBe(`download ${created.id} deleted`);

    const again = await admin.request('DELETE', '/api/downloads/delete', { id: created.id });
    expect(again.status).toBe(404);
    const bad = await admin.request('DELETE', '/api/downloads/delete', {});
    expect(bad.status).toBe(422);
  });
});

describe('reading releases', () => {
  it('lists every release, current first then newest, with public fields only', async () => {
    const old = createReleaseDirect(ctx, { title: 'Old', downloadable: false });
    const current = createReleaseDirect(ctx, { title: 'Current', isCurrent: true });
    const newest = createReleaseDirect(ctx, { title: 'Newest', file: null, downloadable: false });
    const list = await sections();
    expect(list.map((release) => release.id)).toEqual([current.id, newest.id, old.id]);
    for (const release of list) {
      expect(release).not.toHaveProperty('stored_name');
      expect(release).not.toHaveProperty('download_count');
    }
    expect(list[0]).toMatchObject({ title: 'Current', filename: 'setup.bin', size: 1000, sha256: current.files[0]?.sha256, downloadable: 1 });
  });

  it('shows admins the downloads of each release, once per user, file and day', async () => {
    const release = createReleaseDirect(ctx, { title: 'Counted' });
    const other = createReleaseDirect(ctx, { title: 'Not downloaded' });
    const user = await login(ctx.app, 'user@example.com');
    // The same user twice on one day is one download (issue 25 item 5); the admin's own download counts too.
    for (let i = 0; i < 2; i++) await (await user.request('GET', `/api/downloads/file/${release.id}`)).arrayBuffer();
    await (await admin.request('GET', `/api/downloads/file/${release.id}`)).arrayBuffer();
    const counts = Object.fromEntries((await sections(admin)).map((r) => [r.id, r.download_count]));
    expect(counts).toEqual({ [release.id]: 2, [other.id]: 0 });
    const single = (await (await admin.request('GET', `/api/downloads/${release.id}`)).json()) as { release: ReleaseView };
    expect(single.release.download_count).toBe(2);
    expect((await sections(user)).every((r) => r.download_count === undefined)).toBe(true);
  });

  it('answers one release by id, or 404', async () => {
    const release = createReleaseDirect(ctx, { title: 'One' });
    const response = await createClient(ctx.app).request('GET', `/api/downloads/${release.id}`);
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { release: ReleaseView };
    expect(answer.release).toMatchObject({ id: release.id, title: 'One', filename: 'setup.bin' });
    expect(answer.release).not.toHaveProperty('stored_name');
    const missing = await createClient(ctx.app).request('GET', '/api/downloads/424242');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'This release does not exist.' });
  });

  it('puts stored releases in the publish snapshot (the static page, feed and search), never the stored name', async () => {
    const created = (await store({ title: 'For the feed', body: 'Notes', release: '9.1', downloadable: '1' }, { name: 'feed.bin', content: 'feed' })).answer
      .release;
    const snapshot = exportSnapshot(ctx.db, ctx.config);
    expect(snapshot.downloads).toEqual([
      expect.objectContaining({
        id: created.id,
        title: 'For the feed',
        body: 'Notes',
        release: '9.1',
        downloadable: true,
        filename: 'feed.bin',
        size: 4,
        sha256: sha256Hex('feed'),
      }),
    ]);
    expect(JSON.stringify(snapshot)).not.toContain(getReleaseWithFiles(ctx.db, created.id)?.files[0]?.stored_name ?? 'missing');
  });
});
