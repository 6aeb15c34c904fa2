// Uploaded images (docs/product/data-model.md#uploaded-image, issue 5 item 3): checked by content, decoded with a
// pixel bound, re-encoded into size variants with sharp, and stored under random names in the store's
// public media area (served at /media, or from S3_PUBLIC_URL: docs/decisions/0050-object-storage.md).
// Re-encoding is what strips metadata (EXIF GPS, XMP, comments): sharp writes none unless asked, and
// nothing of the uploaded bytes is ever served as is.
import crypto from 'node:crypto';
import type { Metadata, OutputInfo } from 'sharp';
import { loadSharp } from '../../lazy-libraries.ts';
import { isDiskFullError } from '../../storage/disk.ts';
import { mediaUrlToKey, type ObjectStore } from '../../storage/object-store/index.ts';

/** The formats an upload may be, recognised by their first bytes; anything else (SVG, HTML, PDF…) is refused. */
export const ALLOWED_IMAGE_TYPES = ['jpeg', 'png', 'webp', 'gif', 'avif'] as const;
export type ImageType = (typeof ALLOWED_IMAGE_TYPES)[number];

/**
 * Decoding is bounded by pixel count, not file size: a 400-byte PNG can claim 30000×30000 pixels and
 * would need gigabytes once decoded. 40 MP covers any camera photo an admin would upload.
 */
export const MAX_INPUT_PIXELS = 40_000_000;

export interface VariantBox {
  width: number;
  height: number;
}
export type VariantSizes = Record<string, { width: number; height: number }>;

/**
 * Variants of page images: bounded by width (height at most twice that, for very tall pictures),
 * never upscaled, always all three, so a caller can rely on every key being there.
 */
export const PAGE_IMAGE_VARIANTS: Readonly<Record<string, VariantBox>> = {
  thumb: { width: 400, height: 800 },
  image: { width: 1200, height: 2400 },
  lg: { width: 2000, height: 4000 },
};
/** The variant also written in the upload's own family (JPEG, or PNG when it has transparency). */
export const FALLBACK_OF = 'image';

/** Why an upload was refused, with the status to answer: 422 for content, 413 for size. */
export class ImageRejected extends Error {
  readonly status: 413 | 422;
  constructor(status: 413 | 422, message: string) {
    super(message);
    this.status = status;
  }
}

export const NOT_AN_IMAGE_MESSAGE = 'The file must be an image of type: jpeg, png, webp, gif, avif.';

/** The image type the bytes really are, from their signature; the file's name and claimed type are ignored. */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  const starts = (signature: number[], at = 0) => signature.every((byte, index) => bytes[at + index] === byte);
  const ascii = (text: string, at: number) =>
    starts(
      [...text].map((char) => char.charCodeAt(0)),
      at,
    );
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (ascii('GIF87a', 0) || ascii('GIF89a', 0)) return 'gif';
  if (ascii('RIFF', 0) && ascii('WEBP', 8)) return 'webp';
  if (ascii('ftyp', 4)) {
    // ISO-BMFF: AVIF when the major brand or one of the compatible brands says so (HEIC is refused).
    const boxSize = Math.min(bytes.length, ((bytes[0] ?? 0) << 24) | ((bytes[1] ?? 0) << 16) | ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0));
    for (let at = 8; at + 4 <= boxSize; at += 4) {
      if (at === 12) continue; // minor version, not a brand
      if (ascii('avif', at) || ascii('avis', at)) return 'avif';
    }
  }
  return null;
}

export interface StoredImage {
  /** Variant name → public URL (/media/<route>/<random>-<variant>.<ext>). */
  urls: Record<string, string>;
  sizes: VariantSizes;
}

export interface StoreImageOptions {
  bytes: Buffer;
  storage: ObjectStore;
  /** Sub-directory and URL segment: news, documentation, tutorials or home. */
  route: string;
  variants: Readonly<Record<string, VariantBox>>;
  /** Also write this variant in the upload's own family, for clients without WebP. */
  fallbackOf?: string;
}

/**
 * Checks, decodes and stores all variants of one upload. Every variant is encoded before the first is
 * stored, and a failure removes those already stored, so nothing is left behind and no row can name half
 * an upload (each variant's own write is all or nothing: a hidden temp name renamed into place locally,
 * one object in a bucket). Throws ImageRejected for uploads that are not acceptable images.
 */
export async function storeImageVariants(options: StoreImageOptions): Promise<StoredImage> {
  const { bytes, route, variants, storage } = options;
  const type = sniffImageType(bytes);
  if (!type) throw new ImageRejected(422, NOT_AN_IMAGE_MESSAGE);
  const source = await openImage(bytes, type);
  const hasAlpha = source.hasAlpha;

  const base = crypto.randomBytes(16).toString('hex');
  const planned: { variant: string; box: VariantBox; format: 'webp' | 'jpeg' | 'png' }[] = Object.entries(variants).map(([variant, box]) => ({
    variant,
    box,
    format: 'webp',
  }));
  const fallbackBox = options.fallbackOf ? variants[options.fallbackOf] : undefined;
  if (fallbackBox) planned.push({ variant: 'fallback', box: fallbackBox, format: hasAlpha || type === 'png' || type === 'gif' ? 'png' : 'jpeg' });

  const stored: string[] = [];
  try {
    const urls: Record<string, string> = {};
    const sizes: VariantSizes = {};
    const encoded: { url: string; data: Buffer; format: string }[] = [];
    for (const { variant, box, format } of planned) {
      const name = `${base}-${variant}.${format === 'jpeg' ? 'jpg' : format}`;
      const { data, info } = await encodeVariant(bytes, box, format);
      encoded.push({ url: `/media/${route}/${name}`, data, format });
      urls[variant] = `/media/${route}/${name}`;
      sizes[variant] = { width: info.width, height: info.height };
    }
    for (const { url, data, format } of encoded) {
      const key = mediaUrlToKey(url) as string;
      // Random names never reused: a CDN in front of the bucket may keep them for a year (docs/scaling.md).
      await storage.putStream(key, data, { contentType: `image/${format}`, cacheControl: 'public, max-age=31536000, immutable' });
      stored.push(url);
    }
    return { urls, sizes };
  } catch (error) {
    await removeMediaFiles(storage, stored);
    // A full disk is the server's trouble, not a damaged upload (libvips words both alike: "VipsJpeg: …").
    if (error instanceof ImageRejected || isDiskFullError(error)) throw error;
    // libvips refuses truncated or corrupt data only once it decodes pixels: still the upload's fault.
    if (isDecodeError(error)) throw new ImageRejected(422, 'The image could not be read. It may be damaged.');
    throw error;
  }
}

interface OpenedImage {
  hasAlpha: boolean;
}

/** Reads the header only: refuses a pixel bomb before any pixel is decoded, and a lying signature. */
async function openImage(bytes: Buffer, type: ImageType): Promise<OpenedImage> {
  let metadata: Metadata;
  try {
    metadata = await (await loadSharp())(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch (error) {
    if (String((error as Error).message).includes('pixel limit')) throw tooManyPixels();
    throw new ImageRejected(422, 'The image could not be read. It may be damaged.');
  }
  const expected = type === 'avif' ? 'heif' : type;
  if (metadata.format !== expected || (type === 'avif' && metadata.compression !== 'av1')) throw new ImageRejected(422, NOT_AN_IMAGE_MESSAGE);
  if ((metadata.width ?? 0) * (metadata.height ?? 0) > MAX_INPUT_PIXELS) throw tooManyPixels();
  return { hasAlpha: metadata.hasAlpha ?? false };
}

function tooManyPixels(): ImageRejected {
  return new ImageRejected(422, `The image has too many pixels (at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels).`);
}

async function encodeVariant(bytes: Buffer, box: VariantBox, format: 'webp' | 'jpeg' | 'png'): Promise<{ data: Buffer; info: OutputInfo }> {
  // rotate() applies the EXIF orientation before the metadata is dropped, so phone photos stay upright.
  // Animated GIF/WebP keep their first frame: the variants are still pictures.
  const pipeline = (await loadSharp())(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
    .rotate()
    .resize({ width: box.width, height: box.height, fit: 'inside', withoutEnlargement: true });
  if (format === 'webp') pipeline.webp({ quality: 82 });
  else if (format === 'jpeg') pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 85, progressive: true });
  else pipeline.png({ compressionLevel: 9 });
  // Variants are small (bounded by their box): held in memory until all are encoded, then stored.
  return pipeline.toBuffer({ resolveWithObject: true });
}

function isDecodeError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return /pixel limit|corrupt|premature|truncated|bad |invalid|unsupported|VipsJpeg|vipspng|VipsForeign|read error/i.test(message);
}

/**
 * The stored object behind one of our own /media URLs, or null for anything else (another host, a path
 * that leaves the route's directory, a name we would not have written). Guards deletes against a damaged row.
 */
export function mediaUrlToStoredKey(url: string): string | null {
  const match = /^\/media\/(news|documentation|tutorials|home)\/([a-f0-9]{8,64}-[a-z]+\.(?:webp|jpg|png))$/.exec(url);
  if (!match) return null;
  return mediaUrlToKey(url);
}

/** Removes the stored variants behind a set of media URLs; missing ones are fine (already gone). Never throws. */
export async function removeMediaFiles(storage: ObjectStore, urls: Iterable<string>, onError?: (error: unknown) => void): Promise<void> {
  for (const url of urls) {
    const key = mediaUrlToStoredKey(url);
    if (!key) continue;
    try {
      await storage.delete(key);
    } catch (error) {
      onError?.(error);
    }
  }
}
