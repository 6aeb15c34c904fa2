// Named queries for posts of the three namespaces.
//
// Named queries for the sections of the three post namespaces.
import { and, asc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { slugify, uniqueSlug } from '../../../common/slugify.ts';
import type { Db } from '../../db/client.ts';
import { preparedFor, preparedRows } from '../../db/prepared.ts';
import { equalsConstant, rowsByIndex } from '../../db/rows-by-index.ts';
import { posts, sections, uploadedFiles, users, type Namespace, type Post, type Section } from '../../db/schema.ts';

export interface PostInput {
  section_id: number;
  title: string;
  body: string;
  published: boolean;
  display_order: number;
  uploaded_file_id?: number | null;
  user_id: number | null;
}

/** A post with what docs/product/data-model.md shows beside it: its section, its attached file and its author. */
export interface PostWithRelations extends Post {
  section: { id: number; title: string; title_slug: string; order: number };
  uploaded_file: { id: number; filename: string; description: string; size: number } | null;
  user: { name: string; role: string; email_verified_at: string | null } | null;
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

export function getPostById(db: Db, namespace: Namespace, id: number): Post | undefined {
  return db
    .select()
    .from(posts)
    .where(and(eq(posts.namespace, namespace), eq(posts.id, id)))
    .get();
}

export interface PostUpdate {
  section_id: number;
  title: string;
  body: string;
  published: boolean;
  display_order: number;
  uploaded_file_id: number | null;
}

/**
 * Updates a post. Its slug is kept when the title changes, so links and anchors to it keep working;
 * only `regenerateSlug` makes a new one from the new title.
 */
export function updatePost(db: Db, namespace: Namespace, id: number, input: PostUpdate, options: { regenerateSlug: boolean; atIso: string }): Post | undefined {
  const slug = options.regenerateSlug ? { title_slug: uniqueSlug(slugify(input.title), (candidate) => isPostSlugTaken(db, namespace, candidate, id)) } : {};
  return db
    .update(posts)
    .set({ ...input, ...slug, published: input.published ? 1 : 0, updated_at: options.atIso })
    .where(and(eq(posts.namespace, namespace), eq(posts.id, id)))
    .returning()
    .get();
}

export function deletePost(db: Db, namespace: Namespace, id: number): boolean {
  return (
    db
      .delete(posts)
      .where(and(eq(posts.namespace, namespace), eq(posts.id, id)))
      .run().changes > 0
  );
}

export function countPostsInSection(db: Db, sectionId: number): number {
  return (
    db
      .select({ count: sql<number>`count(*)` })
      .from(posts)
      .where(eq(posts.section_id, sectionId))
      .get()?.count ?? 0
  );
}

/** Post counts per section of a namespace; published only unless asked, so a count never hints at drafts. */
export function countPostsBySection(db: Db, namespace: Namespace, includeUnpublished: boolean): Map<number, number> {
  const rows = db
    .select({ section_id: posts.section_id, count: sql<number>`count(*)` })
    .from(posts)
    .where(and(eq(posts.namespace, namespace), includeUnpublished ? undefined : eq(posts.published, 1)))
    .groupBy(posts.section_id)
    .all();
  return new Map(rows.map((row) => [row.section_id, row.count]));
}

/** Moves every post of one section to another (same namespace, checked by the caller); returns how many. */
export function movePostsToSection(db: Db, fromSectionId: number, toSectionId: number, atIso: string): number {
  return db.update(posts).set({ section_id: toSectionId, updated_at: atIso }).where(eq(posts.section_id, fromSectionId)).run().changes;
}

export interface PostFilter {
  includeUnpublished: boolean;
  sectionId?: number;
  id?: number;
}

type PostsStatementKey = `posts:${boolean}:${boolean}:${boolean}`;

const postWithRelationsSelection = {
  post: getTableColumns(posts),
  section: { id: sections.id, title: sections.title, title_slug: sections.title_slug, order: sections.order },
  file: { id: uploadedFiles.id, filename: uploadedFiles.filename, description: uploadedFiles.description, size: uploadedFiles.size },
  user: { name: users.name, role: users.role, email_verified_at: users.email_verified_at },
};
/** The statement for one shape of filter; the values come as placeholders, so each shape is prepared once. */
function postsWithRelationsStatement(db: Db, filter: PostFilter) {
  const conditions: (SQL | undefined)[] = [eq(posts.namespace, sql.placeholder('namespace'))];
  if (!filter.includeUnpublished) conditions.push(equalsConstant(posts.published, 1));
  if (filter.sectionId !== undefined) conditions.push(eq(posts.section_id, sql.placeholder('sectionId')));
  if (filter.id !== undefined) conditions.push(eq(posts.id, sql.placeholder('id')));
  return preparedRows(
    db
      .select(postWithRelationsSelection)
      .from(posts)
      .innerJoin(sections, eq(posts.section_id, sections.id))
      .leftJoin(uploadedFiles, eq(posts.uploaded_file_id, uploadedFiles.id))
      .leftJoin(users, eq(posts.user_id, users.id))
      // The posts by rowid, so the ordered join is planned once (server/db/rows-by-index.ts).
      .where(rowsByIndex(posts, and(...conditions)))
      .orderBy(asc(sections.order), asc(sections.id), asc(posts.display_order), asc(posts.id)),
  );
}

/** Posts with their relations, by section order, then display_order, then id (the site's reading order). */
export function listPostsWithRelations(db: Db, namespace: Namespace, filter: PostFilter): PostWithRelations[] {
  const key: PostsStatementKey = `posts:${filter.includeUnpublished}:${filter.sectionId !== undefined}:${filter.id !== undefined}`;
  const statement = preparedFor(db, key, (connection) => postsWithRelationsStatement(connection, filter));
  // A left-joined file or author that is not there is null (server/db/prepared.ts keeps drizzle's rule).
  return statement
    .all({ namespace, sectionId: filter.sectionId, id: filter.id })
    .map(({ post, section, file, user }) => ({ ...post, section, uploaded_file: file, user }));
}

export function getPostWithRelations(db: Db, namespace: Namespace, id: number): PostWithRelations | undefined {
  return listPostsWithRelations(db, namespace, { includeUnpublished: true, id })[0];
}

export interface SectionInput {
  title: string;
  order: number;
}

export function getSectionById(db: Db, namespace: Namespace, id: number): Section | undefined {
  return db
    .select()
    .from(sections)
    .where(and(eq(sections.namespace, namespace), eq(sections.id, id)))
    .get();
}

const sectionBySlugStatement = (db: Db) =>
  preparedRows(
    db
      .select()
      .from(sections)
      .where(and(eq(sections.namespace, sql.placeholder('namespace')), eq(sections.title_slug, sql.placeholder('slug')))),
  );

/** Every section page's API call starts here: prepared once. */
export function getSectionBySlug(db: Db, namespace: Namespace, slug: string): Section | undefined {
  return preparedFor(db, sectionBySlugStatement, sectionBySlugStatement).get({ namespace, slug });
}

export function isSectionSlugTaken(db: Db, namespace: Namespace, slug: string, exceptId?: number): boolean {
  const row = db
    .select({ id: sections.id })
    .from(sections)
    .where(and(eq(sections.namespace, namespace), eq(sections.title_slug, slug)))
    .get();
  return row !== undefined && row.id !== exceptId;
}

export function insertSection(db: Db, namespace: Namespace, input: SectionInput): Section {
  const title_slug = uniqueSlug(slugify(input.title), (candidate) => isSectionSlugTaken(db, namespace, candidate));
  return db.insert(sections).values({ namespace, title: input.title, order: input.order, title_slug }).returning().get();
}

/** Updates title and order; the slug (the section's URL) stays unless `regenerateSlug` asks for a new one. */
export function updateSection(
  db: Db,
  namespace: Namespace,
  id: number,
  input: SectionInput,
  options: { regenerateSlug: boolean; atIso: string },
): Section | undefined {
  const slug = options.regenerateSlug ? { title_slug: uniqueSlug(slugify(input.title), (candidate) => isSectionSlugTaken(db, namespace, candidate, id)) } : {};
  return db
    .update(sections)
    .set({ ...input, ...slug, updated_at: options.atIso })
    .where(and(eq(sections.namespace, namespace), eq(sections.id, id)))
    .returning()
    .get();
}

/** Deletes an empty section; posts.section_id restricts deletes, so a section with posts makes this throw. */
export function deleteSection(db: Db, namespace: Namespace, id: number): boolean {
  return (
    db
      .delete(sections)
      .where(and(eq(sections.namespace, namespace), eq(sections.id, id)))
      .run().changes > 0
  );
}
