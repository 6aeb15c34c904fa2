// Releases with versions, channels, gates and several files (issue 25 items 1 and 2): the new fields of the
// release form and answers, POST /api/downloads/{id}/files and DELETE …/files/{fileId}, the first file that
// today's `file` field stays, the files' SHA-512 and their Ed25519 signature by the update-signing key.
import fs from 'node:fs';
import { createPublicKey, verify } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getReleaseWithFiles } from '../../../../server/features/downloads/queries.ts';
import { fillFileDigests } from '../../../../server/features/downloads/digests.ts';
import { exportSnapshot } from '../../../../server/publish/export-snapshot.ts';
import { createUser, login, type LoggedInClient } from '../../../helpers/auth.ts';
import {
  createReleaseDirect,
  filesOnDisk,
  patternBytes,
  releaseFilePath,
  releaseForm,
  sha256Hex,
  sha512Hex,
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
  admin = await login(ctx.app, 'admin@example.com');
});
afterEach(() => ctx.cleanup());

interface FileView {
  id: number;
  name: string;
  size: number;
  sha256: string;
  sha512: string | null;
  platform: string;
  arch: string;
  url?: string;
}

async function send(path: string, fields: Record<string, string>, file?: { name: string; content: Buffer | string }) {
  const response = await admin.request('POST', path, releaseForm(fields as ReleaseFields, file));
  return {
    status: response.status,
    answer: (await response.json()) as { message: string; release: ReleaseView; file: FileView; errors?: Record<string, string[]> },
  };
}

function fileForm(fields: Record<string, string>, file?: { name: string; content: Buffer | string }): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('file', new File([Buffer.from(file.content)], file.name));
  return form;
}

describe('release fields', () => {
  it('stores version, channel, date and entitlement, and answers them with the files', async () => {
    const { status, answer } = await send(
      '/api/downloads/store',
      { title: 'Suite 5 beta', downloadable: '1', version: '5.0.0-beta.2', channel: 'beta', released_at: '2026-03-01', entitlement: 'pro' },
      { name: 'suite.zip', content: 'suite' },
    );
    expect(status).toBe(201);
    expect(answer.release).toMatchObject({
      version: '5.0.0-beta.2',
      channel: 'beta',
      released_at: '2026-03-01T00:00:00.000Z',
      entitlement: 'PRO',
      filename: 'suite.zip',
      files: [
        {
          id: expect.any(Number),
          name: 'suite.zip',
          size: 5,
          sha256: sha256Hex('suite'),
          sha512: sha512Hex('suite'),
          platform: 'any',
          arch: 'universal',
          url: expect.stringMatching(/^\/api\/downloads\/file\/\d+\/\d+$/),
        },
      ],
    });
  });

  it('defaults to no version, stable, now and no entitlement, as today', async () => {
    const before = new Date(ctx.now()).toISOString();
    const { answer } = await send('/api/downloads/store', { title: 'Plain' });
    expect(answer.release).toMatchObject({
      version: null,
      channel: 'stable',
      entitlement: null,
      files: [],
      has_file: false,
      download_url: null,
      size: 0,
      sha256: '',
    });
    expect(answer.release.released_at >= before).toBe(true);
  });

  it.each([
    ['version', '1.2', 'The version field must be a version like 1.2.3 or 1.3.0-beta.1.'],
    ['version', 'v1.2.3', 'The version field must be a version like 1.2.3 or 1.3.0-beta.1.'],
    ['channel', 'nightly', 'The channel field must be stable or beta.'],
    ['released_at', 'next tuesday', 'The released at field must be a date.'],
    ['released_at', '2026-02-31', 'The released at field must be a date.'],
    ['entitlement', 'a b', 'The entitlement field must be a code of 2 to 32 capital letters, digits or _, starting with a letter.'],
  ])('refuses %s %j with 422, storing nothing', async (field, value, message) => {
    const { status, answer } = await send('/api/downloads/store', { title: 'Bad', [field]: value }, { name: 'x.bin', content: 'x' });
    expect(status).toBe(422);
    expect(answer.errors?.[field]).toEqual([message]);
    expect(filesOnDisk(ctx.config)).toEqual([]);
    expect(publisher.reasons).toEqual([]);
  });

  it('changes only what an update sends; an empty version takes the release out of the feeds', async () => {
    const release = createReleaseDirect(ctx, { version: '1.0.0', entitlement: 'PRO', channel: 'beta' });
    const { answer } = await send(`/api/downloads/update/${release.id}`, { title: 'Renamed' });
    expect(answer.release).toMatchObject({ title: 'Renamed', version: '1.0.0', entitlement: 'PRO', channel: 'beta', released_at: release.released_at });
    const cleared = await send(`/api/downloads/update/${release.id}`, { version: '', entitlement: '', channel: 'stable' });
    expect(cleared.answer.release).toMatchObject({ version: null, entitlement: null, channel: 'stable' });
  });

  it('puts the new fields and the files, without stored names, in the publish snapshot', async () => {
    const release = createReleaseDirect(ctx, {
      version: '2.0.0',
      entitlement: 'PRO',
      files: [{ name: 'a.exe', content: Buffer.from('a'), platform: 'windows', arch: 'x64' }],
    });
    const entry = exportSnapshot(ctx.db, ctx.config).downloads[0];
    expect(entry).toMatchObject({
      version: '2.0.0',
      channel: 'stable',
      entitlement: 'PRO',
      filename: 'a.exe',
      files: [{ id: release.files[0]!.id, name: 'a.exe', platform: 'windows', arch: 'x64', url: `/api/downloads/file/${release.id}/${release.files[0]!.id}` }],
    });
    expect(JSON.stringify(entry)).not.toContain(release.files[0]!.stored_name);
  });
});

describe('files of a release', () => {
  it('adds a file for a platform: 201 with its hashes, listed after the first file, served at its url', async () => {
    const release = createReleaseDirect(ctx, { version: '3.0.0' });
    const content = patternBytes(300_000, 5);
    const response = await admin.request(
      'POST',
      `/api/downloads/${release.id}/files`,
      fileForm({ platform: 'macos', arch: 'arm64' }, { name: 'Suite.dmg', content }),
    );
    expect(response.status).toBe(201);
    const { file } = (await response.json()) as { file: FileView };
    expect(file).toEqual({
      id: expect.any(Number),
      name: 'Suite.dmg',
      size: content.length,
      sha256: sha256Hex(content),
      sha512: sha512Hex(content),
      platform: 'macos',
      arch: 'arm64',
      url: `/api/downloads/file/${release.id}/${file.id}`,
    });
    const detail = (await (await admin.request('GET', `/api/downloads/${release.id}`)).json()) as { release: ReleaseView };
    expect(detail.release.files.map((each) => each.name)).toEqual(['setup.bin', 'Suite.dmg']);
    expect(detail.release.filename).toBe('setup.bin');
    const served = await admin.request('GET', file.url!);
    expect(sha256Hex(Buffer.from(await served.arrayBuffer()))).toBe(sha256Hex(content));
    expect(publisher.reasons).toEqual([`download ${release.id}: file added`]);
  });

  it.each([
    [{ platform: 'beos', arch: 'x64' }, 'platform', 'The platform field must be one of windows, macos, linux, any.'],
    [{ platform: 'linux', arch: 'sparc' }, 'arch', 'The arch field must be one of x64, arm64, universal.'],
    [{ arch: 'x64' }, 'platform', 'The platform field must be one of windows, macos, linux, any.'],
  ])('refuses %j with 422 and leaves no file behind', async (fields, field, message) => {
    const release = createReleaseDirect(ctx, {});
    const before = filesOnDisk(ctx.config);
    const response = await admin.request('POST', `/api/downloads/${release.id}/files`, fileForm(fields, { name: 'x.bin', content: 'x' }));
    expect(response.status).toBe(422);
    expect(((await response.json()) as { errors: Record<string, string[]> }).errors[field]).toEqual([message]);
    expect(filesOnDisk(ctx.config)).toEqual(before);
    expect(getReleaseWithFiles(ctx.db, release.id)?.files).toHaveLength(1);
  });

  it('needs a file, and a release that exists', async () => {
    const release = createReleaseDirect(ctx, {});
    const noFile = await admin.request('POST', `/api/downloads/${release.id}/files`, fileForm({ platform: 'linux', arch: 'x64' }));
    expect(noFile.status).toBe(422);
    expect(((await noFile.json()) as { errors: Record<string, string[]> }).errors.file).toEqual(['The file field is required.']);
    const missing = await admin.request('POST', '/api/downloads/424242/files', fileForm({ platform: 'linux', arch: 'x64' }, { name: 'x', content: 'x' }));
    expect(missing.status).toBe(404);
  });

  it('deletes a file (row, then bytes), but never the last file of a downloadable release', async () => {
    const release = createReleaseDirect(ctx, {
      files: [
        { name: 'one.bin', content: Buffer.from('1') },
        { name: 'two.bin', content: Buffer.from('2'), platform: 'linux', arch: 'x64' },
      ],
    });
    const [first, second] = release.files;
    const removed = await admin.request('DELETE', `/api/downloads/${release.id}/files/${first!.id}`);
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ message: 'File deleted.', id: first!.id });
    expect(fs.existsSync(releaseFilePath(ctx.config, first!.stored_name))).toBe(false);
    // The remaining file is now the first file.
    const detail = (await (await admin.request('GET', `/api/downloads/${release.id}`)).json()) as { release: ReleaseView };
    expect(detail.release).toMatchObject({ filename: 'two.bin', files: [{ id: second!.id }] });
    const last = await admin.request('DELETE', `/api/downloads/${release.id}/files/${second!.id}`);
    expect(last.status).toBe(422);
    expect(fs.existsSync(releaseFilePath(ctx.config, second!.stored_name))).toBe(true);
    expect((await admin.request('DELETE', `/api/downloads/${release.id}/files/424242`)).status).toBe(404);
  });

  it('keeps the other files when the release form replaces the first one', async () => {
    const release = createReleaseDirect(ctx, {
      files: [
        { name: 'one.bin', content: Buffer.from('1') },
        { name: 'win.exe', content: Buffer.from('w'), platform: 'windows', arch: 'x64' },
      ],
    });
    const { answer } = await send(`/api/downloads/update/${release.id}`, {}, { name: 'new.bin', content: 'new!' });
    expect(answer.release.files.map((file) => [file.id, file.name, file.sha512])).toEqual([
      [release.files[0]!.id, 'new.bin', sha512Hex('new!')],
      [release.files[1]!.id, 'win.exe', sha512Hex('w')],
    ]);
    expect(fs.existsSync(releaseFilePath(ctx.config, release.files[0]!.stored_name))).toBe(false);
  });
});

describe('digests', () => {
  it('hashes files stored without a SHA-512 and signs every file with the update-signing key', async () => {
    const release = createReleaseDirect(ctx, {
      files: [
        { name: 'a.bin', content: patternBytes(5000, 1) },
        { name: 'b.bin', content: patternBytes(7000, 2) },
      ],
    });
    // As the migration leaves a file stored before issue 25.
    ctx.db.$client.prepare('UPDATE release_files SET sha512 = NULL WHERE id = ?').run(release.files[0]!.id);
    expect(await fillFileDigests(ctx)).toBe(2);
    const key = ctx.updateKeyring().current;
    expect(key.kid).not.toBe(ctx.keyring().current.kid);
    const publicKey = createPublicKey({ key: { ...key.publicJwk }, format: 'jwk' });
    for (const [index, file] of (getReleaseWithFiles(ctx.db, release.id)?.files ?? []).entries()) {
      const bytes = patternBytes(index === 0 ? 5000 : 7000, index + 1);
      expect(file.sha512).toBe(sha512Hex(bytes));
      expect(file.ed_signature_kid).toBe(key.kid);
      expect(verify(null, bytes, publicKey, Buffer.from(file.ed_signature!, 'base64'))).toBe(true);
    }
    expect(await fillFileDigests(ctx)).toBe(0);
  });
});
