// Named queries for the sections of the three post namespaces.
import { and, asc, eq } from 'drizzle-orm';
import { slugify, uniqueSlug } from '../../../src/lib/slugify.ts';
import type { Db } from '../client.ts';
import { sections, type Namespace, type Section } from '../schema.ts';

export function listSections(db: Db, namespace: Namespace): Section[] {
  return db.select().from(sections).where(eq(sections.namespace, namespace)).orderBy(asc(sections.order), asc(sections.id)).all();
}

export function isSectionSlugTaken(db: Db, namespace: Namespace, slug: string, exceptId?: number): boolean {
  const row = db
    .select({ id: sections.id })
    .from(sections)
    .where(and(eq(sections.namespace, namespace), eq(sections.title_slug, slug)))
    .get();
  return row !== undefined && row.id !== exceptId;
}

export function insertSection(db: Db, namespace: Namespace, input: { title: string; order: number }): Section {
  const title_slug = uniqueSlug(slugify(input.title), (candidate) => isSectionSlugTaken(db, namespace, candidate));
  return db.insert(sections).values({ namespace, title: input.title, order: input.order, title_slug }).returning().get();
}
