// Named queries for the image library of each post namespace (docs/product/data-model.md#uploaded-image).
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { uploadedImages, type Namespace, type UploadedImage } from '../../db/schema.ts';

export interface UploadedImageInput {
  title: string;
  alt: string;
  /** JSON text: variant → URL. */
  image_url: string;
  /** JSON text: variant → { width, height }. */
  sizes: string;
  is_video: number;
}

/** Newest first: the image just uploaded is the one the admin wants to insert next. */
export function listUploadedImages(db: Db, namespace: Namespace): UploadedImage[] {
  return db.select().from(uploadedImages).where(eq(uploadedImages.namespace, namespace)).orderBy(desc(uploadedImages.id)).all();
}

export function getUploadedImage(db: Db, namespace: Namespace, id: number): UploadedImage | undefined {
  return db
    .select()
    .from(uploadedImages)
    .where(and(eq(uploadedImages.namespace, namespace), eq(uploadedImages.id, id)))
    .get();
}

export function getUploadedImages(db: Db, namespace: Namespace, ids: number[]): UploadedImage[] {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(uploadedImages)
    .where(and(eq(uploadedImages.namespace, namespace), inArray(uploadedImages.id, ids)))
    .all();
}

export function insertUploadedImage(db: Db, namespace: Namespace, input: UploadedImageInput): UploadedImage {
  return db
    .insert(uploadedImages)
    .values({ ...input, namespace })
    .returning()
    .get();
}

export function updateUploadedImage(
  db: Db,
  namespace: Namespace,
  id: number,
  changes: Partial<Pick<UploadedImage, 'title' | 'alt' | 'image_url' | 'sizes'>> & { updated_at: string },
): UploadedImage | undefined {
  return db
    .update(uploadedImages)
    .set(changes)
    .where(and(eq(uploadedImages.namespace, namespace), eq(uploadedImages.id, id)))
    .returning()
    .get();
}

export function deleteUploadedImages(db: Db, namespace: Namespace, ids: number[]): number {
  if (ids.length === 0) return 0;
  return db
    .delete(uploadedImages)
    .where(and(eq(uploadedImages.namespace, namespace), inArray(uploadedImages.id, ids)))
    .run().changes;
}
