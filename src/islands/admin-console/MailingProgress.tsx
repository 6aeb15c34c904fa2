// How far one mailing has got: a progress bar of the recipients handled (sent, failed or skipped) and
// the counts in words. Used by the mailings list and by the Send Mailing dialog after queueing.
import type { MailingCounts } from '../../lib/api/admin.ts';

export function countsText(counts: MailingCounts): string {
  const parts = [`${counts.sent} sent`, `${counts.pending} pending`, `${counts.failed} failed`];
  if (counts.skipped > 0) parts.push(`${counts.skipped} skipped`);
  return `${parts.join(', ')} of ${counts.total}`;
}

export function MailingProgress({ counts, label }: { counts: MailingCounts; label: string }) {
  const handled = counts.total - counts.pending;
  const percent = counts.total > 0 ? Math.round((handled * 100) / counts.total) : 100;
  const done = counts.pending === 0;
  return (
    <div className="admin-mailing-progress">
      <div
        className="progress"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={counts.total}
        aria-valuenow={handled}
        aria-valuetext={countsText(counts)}
      >
        <div className={counts.failed > 0 ? 'progress__bar progress__bar--admin-warning' : 'progress__bar'} style={{ width: `${percent}%` }}></div>
      </div>
      <p className="admin-mailing-progress__counts">
        <span className={done ? 'admin-mailing-progress__state admin-mailing-progress__state--done' : 'admin-mailing-progress__state'}>
          {done ? (counts.failed > 0 ? 'Finished with failures' : 'Complete') : 'Sending…'}
        </span>{' '}
        {countsText(counts)}
      </p>
    </div>
  );
}
