// Who may download which release and file (issue 25 item 3; docs/product/downloads.md#who-may-download,
// docs/decisions/0048-releases-and-update-feeds.md): the one decision every browser download route, the
// signed links, "My software" and the update API ask. Today's rules first (signed in, verified, a
// downloadable release with a file; admins everything), then the gates a release may carry: an
// `entitlement`, and the `beta` channel, which needs BETA. A gated release needs a license of the holder
// that is valid, carries every code asked for, and whose maintenance covers the release date.
import type { DownloadItem, ReleaseFile } from '../../db/schema.ts';
import { coveredByMaintenance, missingEntitlements, type LicenseGrant } from '../licensing/index.ts';

export const BETA_ENTITLEMENT_CODE = 'BETA';

export const DOWNLOAD_MESSAGES = {
  /** docs/product/roles.md, exact text. */
  anonymous: 'You must be logged in to use download',
  /** docs/product/roles.md, exact text. */
  unverified: 'Only verified user can use download!',
  /** Non-admins: a release or file that is not downloadable, has no file, or does not exist. */
  unavailable: 'This release is not available for download.',
  notFound: 'This release does not exist.',
  noFile: 'This release has no file to download.',
  fileNotFound: 'This file does not exist.',
  fileMissing: 'The file of this release is missing on the server. Please tell the site admin.',
  rangeNotSatisfiable: 'The requested range lies outside the file.',
} as const;

export type GateCode = 'NO_LICENSE' | 'ENTITLEMENTS_MISSING' | 'MAINTENANCE_EXPIRED';

/** Who asks. `licensed` is a verified user with their licenses, a license key (one grant), or no key at all (none). */
export type ReleaseHolder = { kind: 'visitor' } | { kind: 'unverified' } | { kind: 'admin' } | { kind: 'licensed'; grants: readonly LicenseGrant[] };

export type ReleaseAccess =
  | { ok: true; file: ReleaseFile; /** The license that let a gated release through; null for an ungated one or an admin. */ grant: LicenseGrant | null }
  | { ok: false; status: 401 | 403 | 404; message: string; code?: GateCode };

/** What the release asks of a license: its entitlement, and BETA on the beta channel. */
export function requiredEntitlements(release: Pick<DownloadItem, 'entitlement' | 'channel'>): string[] {
  const codes = release.entitlement ? [release.entitlement] : [];
  if (release.channel === 'beta' && !codes.includes(BETA_ENTITLEMENT_CODE)) codes.push(BETA_ENTITLEMENT_CODE);
  return codes;
}

function day(iso: string): string {
  return iso.slice(0, 10);
}

/** The gate alone, for a release a non-admin may see: which license lets them through, or why none does. */
export function decideGate(
  release: Pick<DownloadItem, 'entitlement' | 'channel' | 'released_at'>,
  grants: readonly LicenseGrant[],
): { ok: true; grant: LicenseGrant | null } | { ok: false; code: GateCode; message: string } {
  const required = requiredEntitlements(release);
  if (required.length === 0) return { ok: true, grant: null };
  const valid = grants.filter((grant) => grant.valid);
  const beta = release.channel === 'beta';
  if (valid.length === 0) {
    return { ok: false, code: 'NO_LICENSE', message: `Downloading this ${beta ? 'beta ' : ''}release needs a valid license, and you have none.` };
  }
  const entitled = valid.filter((grant) => missingEntitlements(grant, required).length === 0);
  if (entitled.length === 0) {
    return {
      ok: false,
      code: 'ENTITLEMENTS_MISSING',
      message: `Your license does not include this release: it needs ${required.join(' and ')}${beta ? ' (beta releases need BETA)' : ''}.`,
    };
  }
  const covered = entitled.find((grant) => coveredByMaintenance(grant, release.released_at));
  if (!covered) {
    const latestEnd =
      entitled
        .map((grant) => grant.maintenance_until ?? '')
        .sort()
        .at(-1) ?? '';
    return {
      ok: false,
      code: 'MAINTENANCE_EXPIRED',
      message: `Your maintenance ended on ${day(latestEnd)}, before this release came out on ${day(release.released_at)}. Renew your maintenance to download it.`,
    };
  }
  return { ok: true, grant: covered };
}

/**
 * The decision. `fileId` picks one file of the release; undefined means its first file. Non-admins get one
 * answer for a release or file that does not exist, is not downloadable or has no file, so trying ids
 * reveals nothing beyond the public list; the gate's codes only ever speak of releases they can see.
 */
export function decideReleaseAccess(
  holder: ReleaseHolder,
  release: (DownloadItem & { files: readonly ReleaseFile[] }) | undefined,
  fileId?: number,
): ReleaseAccess {
  if (holder.kind === 'visitor') return { ok: false, status: 401, message: DOWNLOAD_MESSAGES.anonymous };
  if (holder.kind === 'unverified') return { ok: false, status: 403, message: DOWNLOAD_MESSAGES.unverified };
  const file = release && (fileId === undefined ? release.files[0] : release.files.find((candidate) => candidate.id === fileId));
  if (holder.kind === 'admin') {
    if (!release) return { ok: false, status: 404, message: DOWNLOAD_MESSAGES.notFound };
    if (!file) return { ok: false, status: 404, message: fileId === undefined ? DOWNLOAD_MESSAGES.noFile : DOWNLOAD_MESSAGES.fileNotFound };
    return { ok: true, file, grant: null };
  }
  if (!release || release.downloadable !== 1 || !file) return { ok: false, status: 403, message: DOWNLOAD_MESSAGES.unavailable };
  const gate = decideGate(release, holder.grants);
  if (!gate.ok) return { ok: false, status: 403, message: gate.message, code: gate.code };
  return { ok: true, file, grant: gate.grant };
}
