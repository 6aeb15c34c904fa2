// A release's files, one row per platform and architecture (issue 25, item 2): the one markup of it for
// every place a release is shown. The static downloads page renders it at build time (DownloadCard.astro,
// PreviousReleases.astro: no React reaches readers, it is only HTML there), the admin's list and the
// dashboard's "My software" render it in their islands. What differs is given by the owner: the download
// control of a file (a slot the page script fills, or a React button) and the copy button of its SHA-256.
// FileFacts, a file's name, size and hash, is also the card of a release with one file, static or the admin's.
import type { ReactNode } from 'react';
import { entitlementText, fileSizeText, platformLabel, releasedText } from '../../lib/release-markup.ts';
import type { Release, ReleaseFile } from '../../lib/api/downloads.ts';

type FactsOf = Pick<Release, 'channel' | 'released_at' | 'entitlement'>;

export type ListedFile = Pick<ReleaseFile, 'id' | 'name' | 'size' | 'sha256' | 'platform' | 'arch' | 'url'>;

interface ReleaseFileListProps<File extends ListedFile> {
  files: readonly File[];
  /** The release's title, for the list's name ("Files of Gauge Studio 3.1"). */
  title: string;
  /** Unique on the page: the static list and the admin's are both in the document while the admin's loads. */
  idPrefix: string;
  /** Platform, size and the control only (table rows, older releases); the full list adds name and SHA-256. */
  compact?: boolean;
  renderAction?: (file: File) => ReactNode;
  renderCopy?: (targetId: string, label: string) => ReactNode;
  /**
   * The static page's slots instead (Astro cannot hand React a render function): an empty download slot per
   * file that src/scripts/downloads-page.ts fills for whoever may download, and the copy buttons it enables.
   */
  staticSlots?: { releaseId: number; gated: boolean };
}

/** The empty slot the downloads page script fills with a Download button (or nothing) per reader. */
function StaticDownloadSlot({ releaseId, gated, file }: { releaseId: number; gated: boolean; file: ListedFile }) {
  return (
    <div
      className="download-card__action"
      data-download-action=""
      data-download-id={releaseId}
      data-file-url={file.url}
      data-platform={file.platform}
      data-arch={file.arch}
      data-filename={file.name}
      data-size={file.size}
      data-gated={gated ? '' : undefined}
    />
  );
}

function StaticCopyButton({ targetId, label }: { targetId: string; label: string }) {
  return (
    <button type="button" className="copy-button" data-copy-target={targetId} data-pagefind-ignore="" aria-label={label} hidden>
      Copy
    </button>
  );
}

/** Who draws the copy button of a SHA-256: the owner's React button, or the static page's hidden one that src/scripts/copy-buttons.ts enables. */
type CopyRenderer = ((targetId: string, label: string) => ReactNode) | 'static' | undefined;

interface FileFactsProps {
  name: string;
  /** As the reader reads it ("12.4 MB"); the row is left out when it is empty (an old release without a size). */
  size: string;
  sha256: string | null;
  /** Unique on the page: the copy button names the hash it copies by it. */
  shaId: string;
  /** Added to download-card__file, which styles the list on every page. */
  className?: string;
  copy: CopyRenderer;
}

/** A file's name, size and SHA-256 with its copy button: the one markup of them, for a release's single file and for each of its files. */
export function FileFacts({ name, size, sha256, shaId, className, copy }: FileFactsProps) {
  const copyLabel = `Copy the SHA-256 of ${name}`;
  return (
    <dl className={className ? `download-card__file ${className}` : 'download-card__file'}>
      <div>
        <dt>File</dt>
        <dd className="download-card__filename">{name}</dd>
      </div>
      {size && (
        <div>
          <dt>Size</dt>
          <dd>{size}</dd>
        </div>
      )}
      {sha256 && (
        <div className="download-card__sha">
          <dt>SHA-256</dt>
          <dd>
            <code id={shaId} className="download-card__hash">
              {sha256}
            </code>
            {copy === 'static' ? <StaticCopyButton targetId={shaId} label={copyLabel} /> : copy?.(shaId, copyLabel)}
          </dd>
        </div>
      )}
    </dl>
  );
}

export function ReleaseFileList<File extends ListedFile>({ files, title, idPrefix, compact = false, staticSlots, ...render }: ReleaseFileListProps<File>) {
  if (files.length === 0) return null;
  const renderAction = staticSlots
    ? (file: File) => <StaticDownloadSlot releaseId={staticSlots.releaseId} gated={staticSlots.gated} file={file} />
    : render.renderAction;
  const renderCopy = staticSlots ? 'static' : render.renderCopy;
  return (
    <ul className={compact ? 'release-files release-files--compact' : 'release-files'} aria-label={`Files of ${title}`}>
      {files.map((file) => {
        const shaId = `${idPrefix}-file-${file.id}-sha256`;
        return (
          <li key={file.id} className="release-file" data-release-file-id={file.id}>
            <p className="release-file__platform">
              <span className="release-file__platform-name">{platformLabel(file)}</span>
              {compact && <span className="release-file__size">{fileSizeText(file.size)}</span>}
            </p>
            {!compact && (
              <FileFacts className="release-file__facts" name={file.name} size={fileSizeText(file.size)} sha256={file.sha256} shaId={shaId} copy={renderCopy} />
            )}
            {renderAction && <div className="release-file__action">{renderAction(file)}</div>}
          </li>
        );
      })}
    </ul>
  );
}

/** The facts of a release that uses issue 25 under its title: Beta, the release date and what its gate asks. */
export function ReleaseFacts({ release, gateTypeNames }: { release: FactsOf; gateTypeNames?: readonly string[] }) {
  return (
    <p className="release-facts">
      {release.channel === 'beta' && <span className="badge badge--beta">Beta</span>}
      <span className="release-facts__date">
        <time dateTime={release.released_at}>{releasedText(release.released_at)}</time>
      </span>
      {release.entitlement && <span className="release-facts__gate">{entitlementText(release.entitlement, gateTypeNames)}</span>}
    </p>
  );
}
