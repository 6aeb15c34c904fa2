// The upload limit (UPLOAD_MAX_BYTES): past it a clear 413, and nothing left behind, not a row, not a
// file, not a temp file, not a publish.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listDownloadItems } from '../../../../server/features/downloads/queries.ts';
import { createUser, login, type LoggedInClient } from '../../../helpers/auth.ts';
import { filesOnDisk, patternBytes, releaseForm, sha256Hex } from '../../../helpers/downloads.ts';
import { createRecordingPublisher, createTestContext, type RecordingPublisher, type TestContext } from '../../../helpers/test-context.ts';

const LIMIT = 4096;
let ctx: TestContext;
let publisher: RecordingPublisher;
let admin: LoggedInClient;

beforeEach(async () => {
  publisher = createRecordingPublisher();
  ctx = createTestContext({ publisher, env: { UPLOAD_MAX_BYTES: String(LIMIT) } });
  await createUser(ctx, { email: 'admin@example.com', role: 'admin' });
  admin = await login(ctx.app, 'admin@example.com');
});
afterEach(() => ctx.cleanup());

describe('upload limit', () => {
  it('accepts a file of exactly the limit', async () => {
    const content = patternBytes(LIMIT);
    const response = await admin.request('POST', '/api/downloads/store', releaseForm({ title: 'Fits', downloadable: '1' }, { name: 'fits.bin', content }));
    expect(response.status).toBe(201);
    expect(((await response.json()) as { release: { sha256: string } }).release.sha256).toBe(sha256Hex(content));
  });

  it('answers 413 one byte past it, leaving no row, no file, no temp file and no publish', async () => {
    const response = await admin.request(
      'POST',
      '/api/downloads/store',
      releaseForm({ title: 'Too big', downloadable: '1' }, { name: 'big.bin', content: patternBytes(LIMIT + 1) }),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: 'The file is larger than the limit of 4 KiB.' });
    expect(listDownloadItems(ctx.db)).toEqual([]);
    expect(filesOnDisk(ctx.config)).toEqual([]);
    expect(publisher.reasons).toEqual([]);
  });

  it('answers 413 on update too, keeping the old file', async () => {
    const created = await admin.request(
      'POST',
      '/api/downloads/store',
      releaseForm({ title: 'R', downloadable: '1' }, { name: 'small.bin', content: 'small' }),
    );
    const { release } = (await created.json()) as { release: { id: number } };
    const before = filesOnDisk(ctx.config);
    const response = await admin.request(
      'POST',
      `/api/downloads/update/${release.id}`,
      releaseForm({ title: 'R' }, { name: 'big.bin', content: patternBytes(LIMIT * 3) }),
    );
    expect(response.status).toBe(413);
    expect(filesOnDisk(ctx.config)).toEqual(before);
    expect(listDownloadItems(ctx.db)[0]?.files.map((file) => file.name)).toEqual(['small.bin']);
  });

  it('refuses an announced oversize body before reading it', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const response = await ctx.app.request('/api/downloads/store', {
      method: 'POST',
      headers: {
        Cookie: admin.cookieHeader,
        'X-XSRF-TOKEN': admin.xsrf ?? '',
        'Content-Type': 'multipart/form-data; boundary=B',
        'Content-Length': String(1024 ** 3),
      },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(1);
    await body.cancel();
  });
});
