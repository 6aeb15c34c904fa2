// Named queries for posts of the three namespaces.
import { and, eq } from 'drizzle-orm';
import { slugify, uniqueSlug } from '../../../src/lib/slugify.ts';
import type { Db } from '../client.ts';
import { posts, type Namespace, type Post } from '../schema.ts';

export interface PostInput {
  section_id: number;
  title: string;
  body: string;
  published: boolean;
  display_order: number;
  uploaded_file_id?: number | null;
  user_id: number | null;
}

export function isPostSlugTaken(db: Db, namespace: Namespace, slug: string, exceptId?: number): boolean {
  const row = db
    .select({ id: posts.id })
    .from(posts)
    .where(and(eq(posts.namespace, namespace), eq(posts.title_slug, slug)))
    .get();
  return row !== undefined && row.id !== exceptId;
}

export function insertPost(db: Db, namespace: Namespace, input: PostInput): Post {
  const title_slug = uniqueSlug(slugify(input.title), (candidate) => isPostSlugTaken(db, namespace, candidate));
  return db
    .insert(posts)
    .values({ ...input, namespace, title_slug, published: input.published ? 1 : 0 })
    .returning()
    .get();
}
