// Named queries for home sections and their images (docs/product/data-model.md#home-section, docs/product/data-model.md#home-image).
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { homeImages, homeSections, type HomeImage, type HomeSection } from '../../db/schema.ts';

export interface HomeSectionInput {
  title: string;
  body: string;
  order: number;
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

/** Deletes the section; its images stay in the library, unassigned (home_section_id 0 per docs/product/data-model.md). */
export function deleteHomeSection(db: Db, id: number): boolean {
  db.update(homeImages).set({ home_section_id: 0 }).where(eq(homeImages.home_section_id, id)).run();
  return db.delete(homeSections).where(eq(homeSections.id, id)).run().changes > 0;
}

export function insertHomeImage(db: Db, image: { title: string; alt: string; urls: string; sizes: string; home_section_id: number; order: number }): HomeImage {
  return db.insert(homeImages).values(image).returning().get();
}

// --- Home images (the home page's image library; 0 = not assigned to any section) ---

export type HomeImageInput = Pick<HomeImage, 'title' | 'alt' | 'urls' | 'sizes' | 'home_section_id' | 'order'>;

/** All home images, or only those of one section (0: the unassigned ones), in slideshow order. */
export function listHomeImages(db: Db, sectionId?: number): HomeImage[] {
  const query = db.select().from(homeImages);
  const filtered = sectionId === undefined ? query : query.where(eq(homeImages.home_section_id, sectionId));
  return filtered.orderBy(asc(homeImages.home_section_id), asc(homeImages.order), asc(homeImages.id)).all();
}

export function getHomeImageById(db: Db, id: number): HomeImage | undefined {
  return db.select().from(homeImages).where(eq(homeImages.id, id)).get();
}

export function getHomeImagesByIds(db: Db, ids: number[]): HomeImage[] {
  if (ids.length === 0) return [];
  return db.select().from(homeImages).where(inArray(homeImages.id, ids)).all();
}

/** The order value that puts a new image last in its section's slideshow. */
export function nextHomeImageOrder(db: Db, sectionId: number): number {
  const row = db
    .select({ max: sql<number | null>`max(${homeImages.order})` })
    .from(homeImages)
    .where(eq(homeImages.home_section_id, sectionId))
    .get();
  return row?.max === null || row?.max === undefined ? 0 : row.max + 1;
}

export function updateHomeImage(
  db: Db,
  id: number,
  changes: Partial<Pick<HomeImage, 'title' | 'alt' | 'urls' | 'sizes' | 'home_section_id' | 'order'>> & { updated_at: string },
): HomeImage | undefined {
  return db.update(homeImages).set(changes).where(eq(homeImages.id, id)).returning().get();
}

export function deleteHomeImages(db: Db, ids: number[]): number {
  if (ids.length === 0) return 0;
  return db.delete(homeImages).where(inArray(homeImages.id, ids)).run().changes;
}

export const HOME_IMAGE_VARIANTS = { thumb: { width: 480, height: 320 }, lg: { width: 1200, height: 800 } } as const;
