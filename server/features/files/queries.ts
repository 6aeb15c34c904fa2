// Named queries for the extra files of each post namespace (docs/product/data-model.md#uploaded-extra-file):
// files an admin uploads to attach to posts as their download.
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { posts, uploadedFiles, type Namespace, type UploadedFile } from '../../db/schema.ts';
import type { PostSummary } from '../../db/queries/content-bodies.ts';

export type UploadedFileInput = Pick<UploadedFile, 'filename' | 'stored_name' | 'description' | 'mime_type' | 'size' | 'sha256'>;

export function listUploadedFiles(db: Db, namespace: Namespace): UploadedFile[] {
  return db.select().from(uploadedFiles).where(eq(uploadedFiles.namespace, namespace)).orderBy(desc(uploadedFiles.id)).all();
}

export function getUploadedFile(db: Db, namespace: Namespace, id: number): UploadedFile | undefined {
  return db
    .select()
    .from(uploadedFiles)
    .where(and(eq(uploadedFiles.namespace, namespace), eq(uploadedFiles.id, id)))
    .get();
}

export function getUploadedFiles(db: Db, namespace: Namespace, ids: number[]): UploadedFile[] {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(uploadedFiles)
    .where(and(eq(uploadedFiles.namespace, namespace), inArray(uploadedFiles.id, ids)))
    .all();
}

export function insertUploadedFile(db: Db, namespace: Namespace, input: UploadedFileInput): UploadedFile {
  return db
    .insert(uploadedFiles)
    .values({ ...input, namespace })
    .returning()
    .get();
}

/** Deletes file rows; posts.uploaded_file_id restricts deletes, so a still-attached file makes this throw. */
export function deleteUploadedFiles(db: Db, namespace: Namespace, ids: number[]): number {
  if (ids.length === 0) return 0;
  return db
    .delete(uploadedFiles)
    .where(and(eq(uploadedFiles.namespace, namespace), inArray(uploadedFiles.id, ids)))
    .run().changes;
}

/** Posts (any namespace) whose attached file is one of `fileIds`, with that file's id. */
export function listPostsAttachedToFiles(db: Db, fileIds: number[]): (PostSummary & { uploaded_file_id: number })[] {
  if (fileIds.length === 0) return [];
  return db
    .select({
      id: posts.id,
      namespace: posts.namespace,
      title: posts.title,
      title_slug: posts.title_slug,
      published: posts.published,
      uploaded_file_id: sql<number>`${posts.uploaded_file_id}`,
    })
    .from(posts)
    .where(inArray(posts.uploaded_file_id, fileIds))
    .orderBy(asc(posts.id))
    .all();
}

/** True when the file is attached to at least one published post: what makes it downloadable by non-admins. */
export function isFileAttachedToPublishedPost(db: Db, namespace: Namespace, fileId: number): boolean {
  return (
    db
      .select({ id: posts.id })
      .from(posts)
      .where(and(eq(posts.namespace, namespace), eq(posts.uploaded_file_id, fileId), eq(posts.published, 1)))
      .get() !== undefined
  );
}
