// One release in "My software" (issue 25, item 6): its name, date and channel, its notes as the site's
// markdown pipeline rendered them on the server, and one Download per platform (the shared file list).
// The newest release shows everything; older ones are compact, their notes folded away.
import { useId } from 'react';
import type { SoftwareRelease as Release } from '../../lib/api/downloads.ts';
import { fileDownloadLabel, releaseName } from '../../lib/release-markup.ts';
import { CopyButton } from '../ui/CopyButton.tsx';
import { DownloadControl } from '../downloads/DownloadControl.tsx';
import { ReleaseFacts, ReleaseFileList } from '../downloads/ReleaseFileList.tsx';

/** The notes come out of the server's sanitising markdown pipeline (common/markdown), so they are safe to insert. */
function Notes({ html, compact }: { html: string; compact: boolean }) {
  if (!html.trim()) return null;
  return <div className={compact ? 'prose prose--compact' : 'prose'} dangerouslySetInnerHTML={{ __html: html }} />;
}

export function SoftwareRelease({ release, latest }: { release: Release; latest: boolean }) {
  const id = useId();
  const name = releaseName(release);
  const files = (
    <ReleaseFileList
      files={release.files}
      title={name}
      idPrefix={id}
      compact={!latest}
      renderAction={(file) => (
        <DownloadControl
          target={{ id: release.id, filename: file.name, size: file.size, fileUrl: file.url }}
          label={fileDownloadLabel(name, file)}
          className={latest ? 'button' : 'button button--small button--secondary'}
        />
      )}
      renderCopy={(targetId, label) => <CopyButton targetId={targetId} label={label} />}
    />
  );
  return (
    <article className={latest ? 'software-release software-release--latest' : 'software-release'} aria-labelledby={`${id}-name`}>
      {latest ? (
        <h4 id={`${id}-name`} className="software-release__name">
          Latest: {name}
        </h4>
      ) : (
        <h5 id={`${id}-name`} className="software-release__name">
          {name}
        </h5>
      )}
      <ReleaseFacts release={{ ...release, entitlement: null }} />
      {latest ? (
        <Notes html={release.notes_html} compact={false} />
      ) : (
        release.notes_html.trim() && (
          <details className="software-release__notes">
            <summary>Release notes</summary>
            <Notes html={release.notes_html} compact />
          </details>
        )
      )}
      {release.files.length > 0 ? files : <p className="empty-note">This release has no file to download yet.</p>}
    </article>
  );
}
