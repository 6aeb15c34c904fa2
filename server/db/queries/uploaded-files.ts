// Named queries for the extra files of each post namespace (docs/product/data-model.md#uploaded-extra-file):
// files an admin uploads to attach to posts as their download.
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { uploadedFiles, type Namespace, type UploadedFile } from '../schema.ts';

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
