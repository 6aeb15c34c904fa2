// An extra file as the files manager lists it: the stored row without its stored name, with the posts using it.
import type { UploadedFile } from '../../db/schema.ts';

export type PostRef = { id: number; title: string; title_slug: string; published: number };

export function presentUploadedFile(file: UploadedFile, posts: PostRef[]) {
  const { id, namespace, filename, description, mime_type, size, sha256, created_at, updated_at } = file;
  return { id, namespace, filename, description, mime_type, size, sha256, created_at, updated_at, posts };
}
