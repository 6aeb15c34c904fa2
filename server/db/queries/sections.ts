// Named queries for the sections of the three post namespaces.
import { and, asc, eq, sql } from 'drizzle-orm';
import { slugify, uniqueSlug } from '../../../common/slugify.ts';
import type { Db } from '../client.ts';
import { preparedFor } from '../prepared.ts';
import { sections, type Namespace, type Section } from '../schema.ts';

export interface SectionInput {
  title: string;
  order: number;
}

/** Sections ascending by order (docs/product/data-model.md), ties by id so the order is stable. */
export function listSections(db: Db, namespace: Namespace): Section[] {
  return db.select().from(sections).where(eq(sections.namespace, namespace)).orderBy(asc(sections.order), asc(sections.id)).all();
}

export function getSectionById(db: Db, namespace: Namespace, id: number): Section | undefined {
  return db
    .select()
    .from(sections)
    .where(and(eq(sections.namespace, namespace), eq(sections.id, id)))
    .get();
}

const sectionBySlugStatement = (db: Db) =>
  db
    .select()
    .from(sections)
    .where(and(eq(sections.namespace, sql.placeholder('namespace')), eq(sections.title_slug, sql.placeholder('slug'))))
    .prepare();

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
