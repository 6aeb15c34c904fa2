// Whether an address may become an account's (docs/product/accounts.md#login-and-registration, #change-e-mail): the one check
// registration and the e-mail change both run, so a banned domain or a taken address is refused the same way.
import type { Db } from '../../db/client.ts';
import { emailDomain, isDomainBanned } from '../banned-domains/index.ts';
import { getUserByEmail } from '../../db/queries/users.ts';

export type EmailRefusal = 'banned-domain' | 'taken';

/** Why `email` cannot be an account's address, or null when it can. Case-insensitive, like the unique index. */
export function emailRefusal(db: Db, email: string): EmailRefusal | null {
  if (isDomainBanned(db, emailDomain(email))) return 'banned-domain';
  // A cheap early answer; the unique index is what really guarantees one account per address.
  if (getUserByEmail(db, email)) return 'taken';
  return null;
}
