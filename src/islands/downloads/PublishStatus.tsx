// Where the admin's last change stands on the public page: 'Publishing…' while the static site is
// rebuilt, then 'Live' (or a failure, after which readers still see the previous version).
import type { PublishPhase } from './use-publish-status.ts';

const TEXT: Record<Exclude<PublishPhase, 'none'>, string> = {
  publishing: 'Publishing…',
  live: 'Live: readers see this list.',
  failed: 'Publishing failed: readers still see the previous version (see the admin screen for the log).',
  unknown: 'Still publishing: check the admin screen for the outcome.',
};

export function PublishStatus({ phase }: { phase: PublishPhase }) {
  return (
    <p className={`publish-status publish-status--${phase}`} role="status" aria-live="polite">
      {phase === 'publishing' && <span className="spinner spinner--small" aria-hidden="true"></span>}
      {phase === 'none' ? '' : TEXT[phase]}
    </p>
  );
}
