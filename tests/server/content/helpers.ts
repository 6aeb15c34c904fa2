// Shared set-up for the content API tests: an app on a fresh database with an admin, a verified user and
// an unverified user, a recording publisher, and real image files made with sharp (no binary fixtures).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import type { RawEnv } from '../../../server/env.ts';
import { createClient, createUser, login, type LoggedInClient, type TestClient } from '../../helpers/auth.ts';
import { createRecordingPublisher, createTestContext, type RecordingPublisher, type TestContext } from '../../helpers/test-context.ts';

export const NAMESPACES = ['news', 'documentation', 'tutorials'] as const;

export interface ContentTest {
  ctx: TestContext;
  publisher: RecordingPublisher;
  admin: () => Promise<LoggedInClient>;
  user: () => Promise<LoggedInClient>;
  unverified: () => Promise<LoggedInClient>;
  anonymous: () => Promise<TestClient>;
}

export async function setupContentTest(env: Partial<Record<keyof RawEnv, string>> = {}): Promise<ContentTest> {
  const publisher = createRecordingPublisher();
  const ctx = createTestContext({ publisher, env });
  await createUser(ctx, { email: 'admin@example.com', role: 'admin', name: 'Ada Admin' });
  await createUser(ctx, { email: 'user@example.com' });
  await createUser(ctx, { email: 'unverified@example.com', verified: false });
  return {
    ctx,
    publisher,
    admin: () => login(ctx.app, 'admin@example.com'),
    user: () => login(ctx.app, 'user@example.com'),
    unverified: () => login(ctx.app, 'unverified@example.com'),
    anonymous: async () => {
      const client = createClient(ctx.app);
      await client.fetchCsrfCookie();
      return client;
    },
  };
}

export async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

export async function makePng(width = 640, height = 480, alpha = false): Promise<Buffer> {
  return sharp({ create: { width, height, channels: alpha ? 4 : 3, background: alpha ? { r: 10, g: 120, b: 200, alpha: 0.5 } : '#3366cc' } })
    .png()
    .toBuffer();
}

export async function makeJpegWithGps(width = 800, height = 600): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#cc6633' } })
    .withExif({ IFD0: { Copyright: 'Test' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' } })
    .jpeg()
    .toBuffer();
}

/** A valid PNG header claiming 30000×30000 pixels (900 MP) with a few hundred bytes of data: a decompression bomb. */
export function makePixelBombPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(30_000, 0);
  header.writeUInt32BE(30_000, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(30_001 * 4))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export function fileForm(bytes: Buffer | string, name: string, type: string, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.append('file', new File([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], name, { type }));
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return form;
}

/** Every file below `dir` (recursively), relative paths, hidden ones included. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** The file behind a /media URL in this test's uploads directory. */
export function mediaFile(ctx: TestContext, url: string): string {
  return path.join(ctx.config.uploadsDir, url.replace(/^\/media\//, ''));
}
