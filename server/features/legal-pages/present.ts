// A legal page as the API answers it (issue 28, section 1): what the in-place editor shows and saves.
import type { LegalPage } from '../../db/schema.ts';

export function presentLegalPage(page: LegalPage) {
  return { slug: page.slug, title: page.title, body: page.body, updated_at: page.updated_at };
}

export type LegalPageView = ReturnType<typeof presentLegalPage>;
