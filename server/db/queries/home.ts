// Named queries for home sections and their images (SPEC.md 3 'Home section', 'Home image').
import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { homeImages, homeSections, type HomeImage, type HomeSection } from '../schema.ts';

export interface HomeSectionInput {
  title: string;
  body: string;
  order: number;
}

export type HomeSectionWithImages = HomeSection & { images: HomeImage[] };

export function listHomeSectionsWithImages(db: Db): HomeSectionWithImages[] {
  const sectionRows = db.select().from(homeSections).orderBy(asc(homeSections.order), asc(homeSections.id)).all();
  const imageRows = db.select().from(homeImages).orderBy(asc(homeImages.order), asc(homeImages.id)).all();
  return sectionRows.map((section) => ({ ...section, images: imageRows.filter((image) => image.home_section_id === section.id) }));
}

export function getHomeSectionById(db: Db, id: number): HomeSection | undefined {
  return db.select().from(homeSections).where(eq(homeSections.id, id)).get();
}

export function insertHomeSection(db: Db, input: HomeSectionInput): HomeSection {
  return db.insert(homeSections).values(input).returning().get();
}

export function updateHomeSection(db: Db, id: number, input: HomeSectionInput): HomeSection | undefined {
  return db
    .update(homeSections)
    .set({ ...input, updated_at: sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))` })
    .where(eq(homeSections.id, id))
    .returning()
    .get();
}

/** Deletes the section; its images stay in the library, unassigned (home_section_id 0 per SPEC.md 3). */
export function deleteHomeSection(db: Db, id: number): boolean {
  db.update(homeImages).set({ home_section_id: 0 }).where(eq(homeImages.home_section_id, id)).run();
  return db.delete(homeSections).where(eq(homeSections.id, id)).run().changes > 0;
}

export function insertHomeImage(db: Db, image: { title: string; alt: string; urls: string; sizes: string; home_section_id: number; order: number }): HomeImage {
  return db.insert(homeImages).values(image).returning().get();
}
