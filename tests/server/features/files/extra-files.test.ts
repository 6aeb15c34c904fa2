// Extra files (docs/product/api.md#extra-files, issue 5 items 4 and 6): streamed uploads under random names in
// private storage, downloads with safe name headers and the permission messages of docs/product/roles.md, deletes refused
// while a post offers the file, and untrusted file names that can never reach the disk.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listUploadedFiles } from '../../../../server/features/files/queries.ts';
import { fileForm, filesUnder, json, setupContentTest, type ContentTest } from '../../content/helpers.ts';

interface FileAnswer {
  id: number;
  filename: string;
  description: string;
  size: number;
  sha256: string;
  mime_type: string;
  posts: { id: number; title: string; published: number }[];
}

let t: ContentTest;
beforeEach(async () => {
  t = await setupContentTest({ UPLOAD_MAX_BYTES: String(256 * 1024) });
});
afterEach(() => t.ctx.cleanup());

const privateFiles = (route: string) => filesUnder(path.join(t.ctx.config.privateFilesDir, route));
const tempFiles = () => filesUnder(path.join(t.ctx.config.privateFilesDir, '.tmp'));

async function uploadFile(
  admin: Awaited<ReturnType<ContentTest['admin']>>,
  route: string,
  content: Buffer | string,
  name: string,
  description = 'Sample data',
) {
  const response = await admin.request('POST', `/api/${route}/extrafiles`, fileForm(content, name, 'application/pdf', { description }));
  expect(response.status).toBe(201);
  return (await json<{ file: FileAnswer }>(response)).file;
}

/** A section and a post offering `fileId` for download. */
async function attach(admin: Awaited<ReturnType<ContentTest['admin']>>, route: string, fileId: number, published: boolean, title = 'Lesson 1') {
  const { section } = await json<{ section: { id: number } }>(
    await admin.request('POST', `/api/${route}/section/store`, { title: `Section for ${title}`, order: 0 }),
  );
  const { post } = await json<{ post: { id: number } }>(
    await admin.request('POST', `/api/${route}/store`, { title, body: 'b', section_id: section.id, uploaded_file_id: fileId, published }),
  );
  return post;
}

describe('uploading and listing', () => {
  it('streams the file to private storage under a random name with its size and SHA-256, and lists it', async () => {
    const admin = await t.admin();
    const content = crypto.randomBytes(100_000);
    const file = await uploadFile(admin, 'tutorials', content, 'Übung 1 (final).pdf', 'Exercise files');
    expect(file).toMatchObject({
      filename: 'Übung 1 (final).pdf',
      description: 'Exercise files',
      size: content.length,
      mime_type: 'application/pdf',
      posts: [],
    });
    expect(file.sha256).toBe(crypto.createHash('sha256').update(content).digest('hex'));
    expect(file).not.toHaveProperty('stored_name');
    const stored = privateFiles('tutorials');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(fs.readFileSync(path.join(t.ctx.config.privateFilesDir, 'tutorials', stored[0] as string)).equals(content)).toBe(true);
    expect(tempFiles()).toEqual([]);
    // Nothing private under the public media directory.
    expect(filesUnder(t.ctx.config.uploadsDir)).toEqual([]);

    const listed = await json<{ files: FileAnswer[] }>(await admin.request('GET', '/api/tutorials/extrafiles'));
    expect(listed.files.map((f) => f.id)).toEqual([file.id]);
    expect((await json<{ files: unknown[] }>(await admin.request('GET', '/api/news/extrafiles'))).files).toEqual([]);
    expect(t.publisher.reasons).toEqual([`tutorials file ${file.id} uploaded`]);
  });

  it('keeps path-traversal and hostile names as harmless header-only names', async () => {
    const admin = await t.admin();
    const cases: [string, string][] = [
      ['../../etc/passwd', 'passwd'],
      ['ab\r\nX-Injected: 1.txt', 'abX-Injected: 1.txt'],
      ['..', 'file'],
      [`${'x'.repeat(400)}.pdf`, 'x'.repeat(255)],
    ];
    for (const [name, expected] of cases) {
      const file = await uploadFile(admin, 'news', 'data', name);
      expect(file.filename, JSON.stringify(name)).toBe(expected);
      const download = await admin.request('POST', '/api/news/extrafiles/download', { id: file.id });
      expect(download.status).toBe(200);
      expect(download.headers.get('filename')).toBe(encodeURIComponent(expected));
      expect(download.headers.get('content-disposition')).not.toMatch(/[\r\n\0]/);
    }
    // A raw control character in a part header breaks the form (RFC 9110 5.5): refused whole, nothing kept.
    const nul = await admin.request('POST', '/api/news/extrafiles', fileForm('data', 'a\u0000b.txt', 'application/pdf'));
    expect(nul.status).toBe(400);
    expect(await json(nul)).toEqual({ message: 'The form data is malformed.' });
    // Backslashes (old browsers send Windows paths) never survive as separators either.
    for (const name of ['..\\..\\windows\\system.ini', 'C:\\Users\\me\\report.pdf']) {
      const file = await uploadFile(admin, 'news', 'data', name);
      expect(file.filename).not.toMatch(/[\\/]/);
      expect(file.filename).toMatch(/(system\.ini|report\.pdf)$/);
    }
    // Every stored file is a random name directly in the route's directory: nothing escaped it.
    expect(privateFiles('news').every((name) => /^[0-9a-f]{32}$/.test(name))).toBe(true);
    expect(privateFiles('news')).toHaveLength(cases.length + 2);
    expect(fs.readdirSync(t.ctx.config.privateFilesDir).sort()).toEqual(['.tmp', 'news']);
  });

  it("answers 'File not selected' without a file and 413 past the limit, leaving nothing", async () => {
    const admin = await t.admin();
    const form = new FormData();
    form.append('description', 'no file');
    const none = await admin.request('POST', '/api/news/extrafiles', form);
    expect(none.status).toBe(422);
    expect(await json(none)).toEqual({ message: 'File not selected', errors: { file: ['File not selected'] } });
    const empty = await admin.request('POST', '/api/news/extrafiles', fileForm('', 'empty.txt', 'text/plain'));
    expect(empty.status).toBe(422);
    const tooBig = await admin.request('POST', '/api/news/extrafiles', fileForm(Buffer.alloc(300 * 1024), 'big.bin', 'application/octet-stream'));
    expect(tooBig.status).toBe(413);
    expect((await json<{ message: string }>(tooBig)).message).toMatch(/limit/);
    expect(privateFiles('news')).toEqual([]);
    expect(tempFiles()).toEqual([]);
    expect(listUploadedFiles(t.ctx.db, 'news')).toEqual([]);
    expect(t.publisher.reasons).toHaveLength(0);
  });

  it('removes the stored file when storing the row fails', async () => {
    const admin = await t.admin();
    t.ctx.db.$client.exec("CREATE TRIGGER refuse_files BEFORE INSERT ON uploaded_files BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    const response = await admin.request('POST', '/api/news/extrafiles', fileForm('data', 'a.txt', 'text/plain'));
    expect(response.status).toBe(500);
    expect(privateFiles('news')).toEqual([]);
    expect(tempFiles()).toEqual([]);
    expect(t.publisher.reasons).toHaveLength(0);
  });

  it('refuses uploads, lists and deletes by anonymous visitors (401) and ordinary users (403)', async () => {
    const admin = await t.admin();
    const file = await uploadFile(admin, 'news', 'data', 'a.txt');
    for (const [client, status] of [
      [await t.anonymous(), 401],
      [await t.user(), 403],
    ] as const) {
      expect((await client.request('POST', '/api/news/extrafiles', fileForm('x', 'x.txt', 'text/plain'))).status).toBe(status);
      expect((await client.request('GET', '/api/news/extrafiles')).status).toBe(status);
      expect((await client.request('DELETE', '/api/news/extrafiles', { ids: [file.id] })).status).toBe(status);
    }
    expect(privateFiles('news')).toHaveLength(1);
    expect(t.publisher.reasons).toHaveLength(1);
  });
});

describe('downloading', () => {
  it('answers the bytes with Content-Length, the filename header and an RFC 6266 Content-Disposition', async () => {
    const admin = await t.admin();
    const content = crypto.randomBytes(70_000);
    const file = await uploadFile(admin, 'documentation', content, 'Mess "bericht" €.pdf');
    const response = await admin.request('POST', '/api/documentation/extrafiles/download', { id: file.id });
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(content)).toBe(true);
    expect(response.headers.get('content-length')).toBe(String(content.length));
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('filename')).toBe(encodeURIComponent('Mess "bericht" €.pdf'));
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Mess _bericht_ _.pdf"; filename*=UTF-8''Mess%20%22bericht%22%20%E2%82%AC.pdf`,
    );
    expect(response.headers.get('cache-control')).toBe('private, no-store');
  });

  it('lets tutorials materials go to verified users only, and only when a published post offers them', async () => {
    const admin = await t.admin();
    const offered = await uploadFile(admin, 'tutorials', 'lesson data', 'lesson.zip');
    const draftOnly = await uploadFile(admin, 'tutorials', 'draft data', 'draft.zip');
    const loose = await uploadFile(admin, 'tutorials', 'loose data', 'loose.zip');
    await attach(admin, 'tutorials', offered.id, true, 'Published lesson');
    await attach(admin, 'tutorials', draftOnly.id, false, 'Draft lesson');

    const anonymous = await t.anonymous();
    const denied = await anonymous.request('POST', '/api/tutorials/extrafiles/download', { id: offered.id });
    expect(denied.status).toBe(401);
    expect(await json(denied)).toEqual({ message: 'You must be logged in to download tutorial materials' });
    const unverified = await (await t.unverified()).request('POST', '/api/tutorials/extrafiles/download', { id: offered.id });
    expect(unverified.status).toBe(403);
    expect(await json(unverified)).toEqual({ message: 'Only verified user can use download!' });

    const user = await t.user();
    const ok = await user.request('POST', '/api/tutorials/extrafiles/download', { id: offered.id });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('lesson data');
    for (const id of [draftOnly.id, loose.id, 9999]) {
      const hidden = await user.request('POST', '/api/tutorials/extrafiles/download', { id });
      expect(hidden.status).toBe(404);
      expect(await json(hidden)).toEqual({ message: 'This file does not exist.' });
    }
    // A file of one namespace is not downloadable through another.
    expect((await user.request('POST', '/api/news/extrafiles/download', { id: offered.id })).status).toBe(404);
    // Admins may download anything.
    expect(await (await admin.request('POST', '/api/tutorials/extrafiles/download', { id: loose.id })).text()).toBe('loose data');
    // The other namespaces say the general message to anonymous visitors.
    expect(await json(await anonymous.request('POST', '/api/news/extrafiles/download', { id: offered.id }))).toEqual({
      message: 'You must be logged in to use download',
    });
  });
});

describe('deleting', () => {
  it('refuses to delete a file a post offers, naming the post; deletes it once detached, removing it from disk', async () => {
    const admin = await t.admin();
    const file = await uploadFile(admin, 'news', 'notes', 'notes.pdf');
    const spare = await uploadFile(admin, 'news', 'spare', 'spare.pdf');
    const post = await attach(admin, 'news', file.id, false, 'Release notes');
    const listed = await json<{ files: FileAnswer[] }>(await admin.request('GET', '/api/news/extrafiles'));
    expect(listed.files.find((f) => f.id === file.id)?.posts).toEqual([expect.objectContaining({ id: post.id, title: 'Release notes', published: 0 })]);
    const before = t.publisher.reasons.length;

    const refused = await admin.request('DELETE', '/api/news/extrafiles', { ids: [file.id, spare.id] });
    expect(refused.status).toBe(409);
    const answer = await json<{ message: string; report: { id: number; posts: { title: string }[] }[] }>(refused);
    expect(answer.message).toContain('"notes.pdf" is attached to the post "Release notes"');
    expect(answer.message).toContain('nothing was deleted');
    expect(answer.report.map((entry) => entry.id)).toEqual([file.id]);
    expect(privateFiles('news')).toHaveLength(2);
    expect(t.publisher.reasons.length).toBe(before);

    const nothing = await admin.request('DELETE', '/api/news/extrafiles', { ids: [] });
    expect(nothing.status).toBe(422);

    const { section } = await json<{ sections: { id: number }[] }>(await admin.request('GET', '/api/news/section/getSections')).then((r) => ({
      section: r.sections[0] as { id: number },
    }));
    await admin.request('PUT', '/api/news/update', { id: post.id, title: 'Release notes', body: 'b', section_id: section.id, uploaded_file_id: 0 });
    const deleted = await admin.request('DELETE', '/api/news/extrafiles', { ids: [file.id, spare.id] });
    expect(deleted.status).toBe(200);
    expect((await json<{ ids: number[] }>(deleted)).ids.sort()).toEqual([file.id, spare.id].sort());
    await vi.waitFor(() => expect(privateFiles('news')).toEqual([]));
    expect(listUploadedFiles(t.ctx.db, 'news')).toEqual([]);
    expect((await admin.request('DELETE', '/api/news/extrafiles', { ids: [file.id] })).status).toBe(404);
  });
});
