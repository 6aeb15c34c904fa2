// The recovery codes as a file to keep (docs/product/accounts.md#two-factor-sign-in): named and headed with the
// product and the account's e-mail, which is what its owner will look for among their files months later; the
// page's host ('127.0.0.1_4601') said neither (issue 28, 2.9).
import { slugify } from '../../common/slugify.ts';

export function recoveryCodesFile(product: string, email: string, codes: readonly string[]): { name: string; text: string } {
  const lines = [`${product} recovery codes for ${email}`, 'Each code signs you in once when you cannot use your authenticator app.', '', ...codes, ''];
  return { name: `${slugify(product)}-recovery-codes-${email}.txt`, text: lines.join('\n') };
}

/** The site's name as every page states it (BaseLayout's og:site_name), for islands that have no snapshot. */
export function siteNameOfPage(doc: Document = document): string {
  return doc.querySelector<HTMLMetaElement>('meta[property="og:site_name"]')?.content.trim() || doc.location.hostname;
}
