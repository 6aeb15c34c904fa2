// Which notice an article's download area shows (docs/product/downloads.md#files-attached-to-posts): anonymous
// readers are asked to log in (in the words of the namespace: tutorials offer "tutorial materials", news and
// documentation a plain download), unverified users to verify; a verified user (or an admin, who is
// verified) gets none and the download button instead.
import type { Namespace } from '../../common/snapshot-types.ts';
import type { CurrentUser } from '../stores/session.ts';

export const DOWNLOAD_NOTICES = {
  anonymousTutorials: 'You must be logged in to download tutorial materials',
  anonymous: 'You must be logged in to use download',
  unverified: 'Only verified user can use download!',
} as const;

/** The notice for an anonymous reader of a namespace: the text the static page carries. */
export function anonymousDownloadNotice(namespace: Namespace): string {
  return namespace === 'tutorials' ? DOWNLOAD_NOTICES.anonymousTutorials : DOWNLOAD_NOTICES.anonymous;
}

/** The notice for a reader, or null when they may download. Undefined (not known yet) reads as anonymous. */
export function downloadNotice(user: Pick<CurrentUser, 'email_verified_at'> | null | undefined, namespace: Namespace): string | null {
  if (!user) return anonymousDownloadNotice(namespace);
  return user.email_verified_at ? null : DOWNLOAD_NOTICES.unverified;
}
