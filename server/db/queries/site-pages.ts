// The site's own pages that are not posts (issue 28, section 1): the legal pages and the contact details. Read here because
// the publish pipeline exports them into the snapshot (server/publish/export-snapshot.ts) and shared layers import no
// feature; the features that edit them (legal-pages, contact) read through these too.
import { asc } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../client.ts';
import { legalPages, type LegalPage } from '../schema.ts';
import { getSetting } from './settings.ts';

export const LEGAL_PAGE_SLUGS = ['privacy', 'terms', 'imprint'] as const;
export type LegalPageSlug = (typeof LEGAL_PAGE_SLUGS)[number];

export function listLegalPages(db: Db): LegalPage[] {
  return db.select().from(legalPages).orderBy(asc(legalPages.slug)).all();
}

/** The settings key of the contact details on /contact: one JSON value, as small as a setting. */
export const CONTACT_DETAILS_KEY = 'contact_details';

export interface ContactDetails {
  address: string;
  email: string;
  phone: string;
  updated_at: string | null;
}

const storedDetails = z.object({ address: z.string(), email: z.string(), phone: z.string(), updated_at: z.string().nullable() });
export const NO_CONTACT_DETAILS: ContactDetails = { address: '', email: '', phone: '', updated_at: null };

/** The contact details as last saved; all empty (each line hidden on the page) before an admin saved any, or if damaged. */
export function getContactDetails(db: Db): ContactDetails {
  const raw = getSetting(db, CONTACT_DETAILS_KEY);
  if (raw === undefined) return NO_CONTACT_DETAILS;
  try {
    const parsed = storedDetails.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : NO_CONTACT_DETAILS;
  } catch {
    return NO_CONTACT_DETAILS;
  }
}
