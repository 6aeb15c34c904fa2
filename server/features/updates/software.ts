// "My software" (issue 25 item 6, the server's part; GET /api/user/software): for each license of the
// signed-in user, what it gives in words, the newest release it lets them download with the older ones,
// and the newest release it does not (with the refusal in words, for a renewal note). Unlike the update
// feeds, which speak of one product on one platform and name only a refused release newer than `latest`,
// the page lists every release, so `blocked` is the newest refused one whatever else is allowed. The same decision as
// every download (decideGate through the downloads face), so the buttons shown are the downloads allowed.
import type { AppContext } from '../../context.ts';
import type { User } from '../../db/schema.ts';
import {
  BETA_ENTITLEMENT_CODE,
  decideGate,
  listDownloadItems,
  presentRelease,
  type GateCode,
  type ReleaseView,
  type ReleaseWithFiles,
} from '../downloads/index.ts';
import { getLicensesOfUser, grantOfLicense, licenseStatus, type LicenseGrant } from '../licensing/index.ts';
import { licenseTypeLabel } from '../../../common/license-type-label.ts';
import { notesHtml, type RenderMarkdown } from './present.ts';

export type SoftwareRelease = ReleaseView & { notes_html: string };

export interface SoftwareLicense {
  id: number;
  type: string;
  status: { code: string; text: string };
  entitlements: string[];
  entitlements_text: string;
  maintenance_until: string | null;
  latest: SoftwareRelease | null;
  older: SoftwareRelease[];
  blocked: { version: string | null; code: GateCode; message: string } | null;
}

/** "Beta releases and REPORTS" — the codes a customer reads on their license, BETA in words. */
export function entitlementsInWords(codes: readonly string[]): string {
  if (codes.length === 0) return 'No extra entitlements';
  const words = codes.map((code) => (code === BETA_ENTITLEMENT_CODE ? 'beta releases' : code));
  const text = words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
  return `Includes ${text}`;
}

function present(release: ReleaseWithFiles, render: RenderMarkdown): SoftwareRelease {
  return { ...presentRelease(release), notes_html: notesHtml(release, render) };
}

/** Releases a license's holder sees: downloadable with a file, stable (and beta with BETA), newest first. */
function releasesFor(releases: readonly ReleaseWithFiles[], grant: LicenseGrant): ReleaseWithFiles[] {
  const beta = grant.entitlements.includes(BETA_ENTITLEMENT_CODE);
  return releases
    .filter((release) => release.downloadable === 1 && release.files.length > 0 && (release.channel === 'stable' || beta))
    .sort((a, b) => b.released_at.localeCompare(a.released_at) || b.id - a.id);
}

export function softwareOfUser(ctx: Pick<AppContext, 'db' | 'now'>, user: User, render: RenderMarkdown): { licenses: SoftwareLicense[] } {
  const now = ctx.now();
  const releases = listDownloadItems(ctx.db);
  // An unverified user may download nothing yet (docs/product/roles.md): their licenses show without releases.
  const mayDownload = user.email_verified_at !== null;
  return {
    licenses: getLicensesOfUser(ctx.db, user.id).map((license) => {
      const grant = grantOfLicense(license, now);
      const allowed: SoftwareRelease[] = [];
      let blocked: SoftwareLicense['blocked'] = null;
      for (const release of mayDownload ? releasesFor(releases, grant) : []) {
        const gate = decideGate(release, [grant]);
        if (gate.ok) allowed.push(present(release, render));
        // The newest release it may not have, even below a newer one it may (another product's add-on):
        // the note says what a renewal or an upgrade would add.
        else if (blocked === null) blocked = { version: release.version, code: gate.code, message: gate.message };
      }
      return {
        id: license.id,
        type: licenseTypeLabel(license.license_type.name),
        status: licenseStatus(license, now),
        entitlements: grant.entitlements,
        entitlements_text: entitlementsInWords(grant.entitlements),
        maintenance_until: grant.maintenance_until,
        latest: allowed[0] ?? null,
        older: allowed.slice(1),
        blocked,
      };
    }),
  };
}
