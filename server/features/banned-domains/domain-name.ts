// Banned-domain input (issue 7, item 3): what an admin types becomes one canonical form, the form
// registration compares against (server/features/banned-domains/queries.ts), and existing users are matched
// the same way registration would refuse them: the domain itself or any subdomain of it.
import { domainToASCII } from 'node:url';
import { domainAndParents, emailDomain } from './queries.ts';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * ` @Mail.Example.COM. ` → `mail.example.com`; `*.spam.com` → `spam.com` (banning a domain bans its
 * subdomains anyway); `bücher.example` → `xn--bcher-kva.example`. Null when the result is not a host
 * name with at least two labels (an IP address, a bare TLD, spaces, underscores…).
 */
export function normaliseDomain(input: string): string | null {
  let text = input.trim().toLowerCase();
  if (text.startsWith('@')) text = text.slice(1);
  else if (text.startsWith('*.')) text = text.slice(2);
  text = text.replace(/\.+$/, '');
  if (text === '' || /[\s/@:?#]/.test(text)) return null;
  // domainToASCII applies IDNA (punycode for non-ASCII labels) and answers '' for what is no domain.
  const ascii = domainToASCII(text);
  if (ascii === '' || ascii.length > 253) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  // A numeric last label is an IP address, not a domain (no TLD is all digits).
  if (/^\d+$/.test(labels.at(-1) ?? '')) return null;
  return ascii;
}

/**
 * For each banned domain, the users whose address it covers, in one pass over the users (a few ms for
 * 10,000) instead of one LIKE scan per domain.
 */
export function usersByBannedDomain<U extends { email: string }>(users: readonly U[], domains: readonly string[]): Map<string, U[]> {
  const result = new Map<string, U[]>(domains.map((domain) => [domain, []]));
  for (const user of users) {
    for (const candidate of domainAndParents(emailDomain(user.email))) result.get(candidate)?.push(user);
  }
  return result;
}
