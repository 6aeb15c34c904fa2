// Which notice an article's download area shows (docs/product/roles.md): anonymous readers and unverified users get
// their message; a verified user (or an admin, who is verified) gets none and the download button instead.
import type { CurrentUser } from '../stores/session.ts';

export const DOWNLOAD_NOTICES = {
  anonymous: 'You must be logged in to download tutorial materials',
  unverified: 'Only verified user can use download!',
} as const;

/** The notice for a reader, or null when they may download. Undefined (not known yet) reads as anonymous. */
export function downloadNotice(user: Pick<CurrentUser, 'email_verified_at'> | null | undefined): string | null {
  if (!user) return DOWNLOAD_NOTICES.anonymous;
  return user.email_verified_at ? null : DOWNLOAD_NOTICES.unverified;
}
