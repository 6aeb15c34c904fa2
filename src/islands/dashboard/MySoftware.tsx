// "My software" on the dashboard (issue 25, item 6): for each of the user's licenses, its type and what it
// includes in words, how long maintenance runs, the newest release it lets the user download with its
// notes and a Download per platform, the older ones it gives, and, when a newer release is out of its
// reach, the server's reason with what to do about it (renew or upgrade through the contact page). Read
// from GET /api/user/software; without a license it points to the Request License flow above it.
import { useId } from 'react';
import { fetchOwnSoftware, type SoftwareLicense } from '../../lib/api/downloads.ts';
import { maintenanceText } from '../../lib/release-markup.ts';
import { LoadFailed } from '../ui/LoadFailed.tsx';
import { useLoaded } from '../ui/use-loaded.ts';
import { LicenseStatus } from './LicenseCard.tsx';
import { SoftwareRelease } from './SoftwareRelease.tsx';

const loadSoftware = () => fetchOwnSoftware().then((answer) => answer.licenses);

/** What the user can do about a release they may not download, by the server's refusal code. */
export function renewalNote(code: string): string {
  switch (code) {
    case 'MAINTENANCE_EXPIRED':
      return 'To get it, renew your maintenance: write to us on the contact page and we will extend it.';
    case 'ENTITLEMENTS_MISSING':
      return 'It needs a license that includes more: write to us on the contact page to upgrade yours.';
    default:
      return 'To download it again, renew your license: write to us on the contact page.';
  }
}

function BlockedNote({ blocked }: { blocked: NonNullable<SoftwareLicense['blocked']> }) {
  const [before, after] = renewalNote(blocked.code).split('the contact page');
  return (
    <div className="notice notice--warning software-blocked" role="note">
      <p>{blocked.message}</p>
      <p className="software-blocked__action">
        {before}
        <a href="/contact">the contact page</a>
        {after}
      </p>
    </div>
  );
}

function SoftwareLicenseCard({ license, verified }: { license: SoftwareLicense; verified: boolean }) {
  const id = useId();
  return (
    <article className="card software-card" aria-labelledby={`${id}-title`}>
      <header className="software-card__header">
        <h3 id={`${id}-title`} className="software-card__title">
          {license.type} license
        </h3>
        <LicenseStatus status={license.status} />
      </header>
      <dl className="details-list">
        <dt>Features</dt>
        <dd>{license.entitlements_text}</dd>
        <dt>Updates</dt>
        <dd>
          {license.maintenance_until ? <time dateTime={license.maintenance_until}>{maintenanceText(license.maintenance_until)}</time> : maintenanceText(null)}
        </dd>
      </dl>
      {license.latest ? (
        <SoftwareRelease release={license.latest} latest />
      ) : (
        !license.blocked && verified && <p className="empty-note">No release is available for this license yet.</p>
      )}
      {license.blocked && <BlockedNote blocked={license.blocked} />}
      {license.older.length > 0 && (
        <section className="software-older" aria-labelledby={`${id}-older`}>
          <h4 id={`${id}-older`} className="software-older__title">
            Older releases
          </h4>
          <ul className="software-older__list">
            {license.older.map((release) => (
              <li key={release.id}>
                <SoftwareRelease release={release} latest={false} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}

/** `verified`: the user's e-mail is verified; until it is, nobody downloads (docs/product/roles.md) and the server lists no release. */
export function MySoftware({ pendingRequest, verified }: { pendingRequest: boolean; verified: boolean }) {
  const { value: licenses, failed, reload } = useLoaded(loadSoftware, 'your software');
  return (
    <section className="my-software" aria-labelledby="software-heading">
      <h2 id="software-heading" className="dashboard__heading">
        My software
      </h2>
      {failed && <LoadFailed what="your software" onRetry={() => void reload()} />}
      {!verified && licenses && licenses.length > 0 && (
        <p className="notice notice--warning">Verify your e-mail address to download your software: follow the link we sent you.</p>
      )}
      {licenses === null && !failed && (
        <p className="empty-note" role="status">
          Loading your software…
        </p>
      )}
      {licenses?.length === 0 && (
        <div className="card software-empty">
          {pendingRequest ? (
            <p>Your license request is awaiting approval. Your software will appear here as soon as it is granted.</p>
          ) : (
            <p>
              Your software appears here once you have a license. Request one with <a href="#licenses-heading">Request License under Licenses</a>.
            </p>
          )}
        </div>
      )}
      {licenses && licenses.length > 0 && (
        <ul className="software-cards">
          {licenses.map((license) => (
            <li key={license.id}>
              <SoftwareLicenseCard license={license} verified={verified} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
