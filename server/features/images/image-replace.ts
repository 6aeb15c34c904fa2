// Replacing an image's file, for page images and home images alike: new variants under new names (media
// URLs are cached as immutable), every post and home section that showed the old URLs rewritten to the new
// ones in the same transaction as the row, and the old files removed only after the publish, so the live
// pages never point at a missing file. Answers: docs/content-api.md.
import type { AppContext } from '../../context.ts';
import { writeTransaction } from '../../db/client.ts';
import { replaceInBodies } from '../../db/queries/content-bodies.ts';
import { parseJsonObject } from '../../http/json.ts';
import { removeMediaFiles, type StoredImage, type VariantBox } from './storage.ts';
import { storeUploadedImage, urlsOf } from './upload.ts';
import { afterPublish } from '../../publish/after-publish.ts';
import { nowIso } from '../../db/timestamps.ts';

export interface ImageReplacement<Row> {
  /** The media route the variants go under (a namespace, or "home"). */
  route: string;
  /** Names the image in publish reasons and logs: "news image 12". */
  label: string;
  variants: Readonly<Record<string, VariantBox>>;
  /** The variant that stands in for one the new image lacks (and the variant made for small images). */
  fallbackVariant: string;
  /** Whether storeImageVariants makes `fallbackVariant` from a smaller original (page images). */
  makesFallback: boolean;
  /** The row's URL JSON as it is now (read inside the transaction), or undefined when it is gone. */
  currentUrls: () => string | undefined;
  /** Writes the new URLs and sizes into the row; returns the updated row. */
  save: (stored: StoredImage, atIso: string) => Row;
}

export interface ReplacedImage<Row> {
  image: Row;
  /** Ids of the posts and home sections whose bodies now show the new URLs. */
  posts: number[];
  homeSections: number[];
}

/** Stores `file` as the image's new variants; undefined (nothing kept) when the row went away meanwhile. */
export async function replaceImageFile<Row>(ctx: AppContext, file: File, target: ImageReplacement<Row>): Promise<ReplacedImage<Row> | undefined> {
  const { db, storage, publisher } = ctx;
  const stored = await storeUploadedImage(ctx, target.route, file, target.variants, target.makesFallback ? target.fallbackVariant : undefined);
  const newUrls = Object.values(stored.urls);
  let result: (ReplacedImage<Row> & { oldUrls: string[] }) | undefined;
  try {
    result = writeTransaction(db, () => {
      const current = target.currentUrls();
      if (current === undefined) return undefined;
      const replacements = replacementsFor(parseJsonObject(current), stored.urls, target.fallbackVariant);
      const at = nowIso(ctx);
      const { posts, homeSections } = replaceInBodies(db, replacements, at);
      return { image: target.save(stored, at), posts, homeSections, oldUrls: urlsOf(current) };
    });
  } catch (error) {
    await removeMediaFiles(storage, newUrls);
    throw error;
  }
  if (!result) {
    await removeMediaFiles(storage, newUrls);
    return undefined;
  }
  publisher.schedule(`${target.label} replaced`);
  const { oldUrls, ...replaced } = result;
  afterPublish(ctx, `${target.label} old files`, () => removeMediaFiles(storage, oldUrls, (error) => ctx.log.warn('image file not removed', error)));
  return replaced;
}

/**
 * Old URL → new URL for every variant of the old image: the same variant where the new image has it,
 * otherwise the fallback (or any) variant, so no page keeps a URL whose file is about to go.
 */
export function replacementsFor(oldUrls: Record<string, unknown>, newUrls: Record<string, string>, fallbackVariant: string): [string, string][] {
  const fallback = newUrls[fallbackVariant] ?? Object.values(newUrls)[0];
  const pairs: [string, string][] = [];
  for (const [variant, url] of Object.entries(oldUrls)) {
    const target = newUrls[variant] ?? fallback;
    if (typeof url === 'string' && url !== '' && target) pairs.push([url, target]);
  }
  return pairs;
}
