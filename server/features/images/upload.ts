// What the two image routers (page images, home images) share: reading the upload form within the
// size limit, turning refusals of server/features/images/storage.ts into answers, and finding the pages that
// still show an image before it is deleted or replaced.
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { findBodiesContaining, type BodyUsage } from '../../db/queries/content-bodies.ts';
import { errorResponse, HttpError } from '../../http/errors.ts';
import { flagFieldOr, idListField } from '../../http/fields.ts';
import { parseFields, readFields } from '../../http/form-or-json.ts';
import { parseJsonObject } from '../../http/json.ts';
import { formatBytes } from '../../storage/receive-upload.ts';
import { ImageRejected, storeImageVariants, type StoredImage, type VariantBox } from './storage.ts';

/** Multipart framing and the small text fields beside the image. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

export function imageTooLargeMessage(maxBytes: number): string {
  return `The image may not be greater than ${formatBytes(maxBytes)}.`;
}

/**
 * Refuses a body over the image limit: at once when Content-Length says so (nothing is read), else
 * as soon as the streamed bytes pass it. Images are small enough to be read whole after this.
 */
export function imageBodyLimit(ctx: Pick<AppContext, 'config'>) {
  return bodyLimit({
    maxSize: ctx.config.imageMaxBytes + FORM_OVERHEAD_BYTES,
    onError: (c) => {
      c.header('Connection', 'close');
      return errorResponse(c, 413, imageTooLargeMessage(ctx.config.imageMaxBytes), { file: [imageTooLargeMessage(ctx.config.imageMaxBytes)] });
    },
  });
}

export interface ImageForm {
  file: File | null;
  fields: Record<string, unknown>;
}

/** The `file` part (null when absent or an empty file input) and the text fields, from a form or JSON body. */
export async function readImageForm(c: Context): Promise<ImageForm> {
  const type = (c.req.header('Content-Type') ?? '').toLowerCase();
  if (!type.startsWith('multipart/form-data')) return { file: null, fields: await readFields(c) };
  let form: Record<string, string | File>;
  try {
    form = await c.req.parseBody();
  } catch {
    throw new HttpError(400, 'The form data could not be read.');
  }
  const fields: Record<string, unknown> = {};
  let file: File | null = null;
  for (const [name, value] of Object.entries(form)) {
    if (typeof value === 'string') fields[name] = value;
    else if (name === 'file' && !(value.size === 0 && value.name === '')) file = value;
  }
  return { file, fields };
}

const forceSchema = z.object({ force: flagFieldOr('force', 0) });
const bulkDeleteSchema = z.object({ ids: idListField('ids', 'Nothing selected!'), force: flagFieldOr('force', 0) });

/** A delete's `force` (delete even while pages show the image), from the query or the body. */
export async function readDeleteForce(c: Context): Promise<boolean> {
  return parseFields(forceSchema, { force: c.req.query('force'), ...(await readFields(c)) }).force === 1;
}

/** A bulk delete's ids and `force`, from the body (force also from the query). */
export async function readBulkDelete(c: Context): Promise<{ ids: number[]; force: boolean }> {
  const { ids, force } = parseFields(bulkDeleteSchema, { force: c.req.query('force'), ...(await readFields(c)) });
  return { ids, force: force === 1 };
}

/** Checks and stores one uploaded image as variants under /media/<route>/; refusals become 413/422 answers. */
export async function storeUploadedImage(
  ctx: Pick<AppContext, 'config' | 'storage'>,
  route: string,
  file: File,
  variants: Readonly<Record<string, VariantBox>>,
  fallbackOf?: string,
): Promise<StoredImage> {
  if (file.size > ctx.config.imageMaxBytes) {
    const message = imageTooLargeMessage(ctx.config.imageMaxBytes);
    throw new HttpError(413, message, { file: [message] });
  }
  try {
    return await storeImageVariants({ bytes: Buffer.from(await file.arrayBuffer()), storage: ctx.storage, route, variants, fallbackOf });
  } catch (error) {
    if (error instanceof ImageRejected) throw new HttpError(error.status, error.message, { file: [error.message] });
    throw error;
  }
}

/** The URLs of an image row's JSON column (variants, video player). */
export function urlsOf(json: string): string[] {
  return Object.values(parseJsonObject(json)).filter((value): value is string => typeof value === 'string' && value !== '');
}

export type ImageUsage = BodyUsage;

/** The posts (any namespace) and home sections whose text contains one of the image's URLs. */
export function findImageUsage(db: Db, urls: string[]): ImageUsage {
  return findBodiesContaining(db, urls);
}

export function isUsed(usage: ImageUsage): boolean {
  return usage.posts.length > 0 || usage.home_sections.length > 0;
}

/** "used in the post "A" (news), the home section "B"": names the pages a delete would break. */
export function describeUsage(usage: ImageUsage): string {
  const places = [
    ...usage.posts.map((post) => `the post "${post.title}" (${post.namespace}${post.published ? '' : ', not published'})`),
    ...usage.home_sections.map((section) => `the home section "${section.title}"`),
  ];
  return places.join(', ');
}
