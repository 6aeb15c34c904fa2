// The markdown bodies that can embed an uploaded image: posts of every namespace and home sections. One place
// answers "where is this text used" and "replace this text everywhere", so an image's usage check (before a
// delete) and its replacement (new file, same image) can never disagree about which bodies they cover.
import { asc, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Db } from '../client.ts';
import { homeSections, posts, type Namespace } from '../schema.ts';

export interface PostSummary {
  id: number;
  namespace: Namespace;
  title: string;
  title_slug: string;
  published: number;
}

export interface BodyUsage {
  posts: PostSummary[];
  home_sections: { id: number; title: string }[];
}

const containsAny = (body: SQLiteColumn, needles: readonly string[]): SQL =>
  sql`(${sql.join(
    needles.map((needle) => sql`instr(${body}, ${needle}) > 0`),
    sql` or `,
  )})`;

/** The posts (any namespace) and home sections whose body contains one of `needles`, in id order. */
export function findBodiesContaining(db: Db, needles: readonly string[]): BodyUsage {
  if (needles.length === 0) return { posts: [], home_sections: [] };
  return {
    posts: db
      .select({ id: posts.id, namespace: posts.namespace, title: posts.title, title_slug: posts.title_slug, published: posts.published })
      .from(posts)
      .where(containsAny(posts.body, needles))
      .orderBy(asc(posts.id))
      .all(),
    home_sections: db
      .select({ id: homeSections.id, title: homeSections.title })
      .from(homeSections)
      .where(containsAny(homeSections.body, needles))
      .orderBy(asc(homeSections.id))
      .all(),
  };
}

/** Replaces text in every body that holds it (a replaced image's URLs); returns the ids of the changed rows. */
export function replaceInBodies(db: Db, replacements: readonly [from: string, to: string][], atIso: string): { posts: number[]; homeSections: number[] } {
  const changedPosts = new Set<number>();
  const changedSections = new Set<number>();
  for (const [from, to] of replacements) {
    if (from === '' || from === to) continue;
    const contains = (body: SQLiteColumn) => sql`instr(${body}, ${from}) > 0`;
    for (const row of db
      .update(posts)
      .set({ body: sql`replace(${posts.body}, ${from}, ${to})`, updated_at: atIso })
      .where(contains(posts.body))
      .returning({ id: posts.id })
      .all()) {
      changedPosts.add(row.id);
    }
    for (const row of db
      .update(homeSections)
      .set({ body: sql`replace(${homeSections.body}, ${from}, ${to})`, updated_at: atIso })
      .where(contains(homeSections.body))
      .returning({ id: homeSections.id })
      .all()) {
      changedSections.add(row.id);
    }
  }
  return { posts: [...changedPosts], homeSections: [...changedSections] };
}
