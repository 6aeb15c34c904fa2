// The legal pages' writes (issue 28, section 1); reads are in server/db/queries/site-pages.ts, which the publish reads too.
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { legalPages, type LegalPage } from '../../db/schema.ts';
import type { LegalPageSlug } from '../../db/queries/site-pages.ts';
import { STARTING_TEXT } from './starting-text.ts';

export function updateLegalPage(db: Db, slug: LegalPageSlug, page: { title: string; body: string; atIso: string }): LegalPage | undefined {
  return db.update(legalPages).set({ title: page.title, body: page.body, updated_at: page.atIso }).where(eq(legalPages.slug, slug)).returning().get();
}

/**
 * Every legal page exists, with its starting text when it was missing (at every start, like the license types): a site
 * never publishes without a privacy policy, and an admin's text is never overwritten. Answers how many were made.
 */
export function ensureLegalPages(db: Db): number {
  let made = 0;
  for (const page of STARTING_TEXT) made += db.insert(legalPages).values(page).onConflictDoNothing().run().changes;
  return made;
}
