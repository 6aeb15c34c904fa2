// The admin's download statistics on the downloads page (issue 25, item 5): for a chosen period, the
// downloads of each version by platform and the software's update checks by reported version, each as a
// bar chart with its table (the chart's text alternative, with the exact numbers), and the share of checks
// coming from the newest version in words. Read from GET /api/admin/downloads/stats?days=N.
import { useCallback, useId, useState } from 'react';
import { fetchDownloadStats } from '../../lib/api/downloads.ts';
import { checksByVersion, downloadsByVersion, onLatestText, STATS_PERIODS } from '../../lib/download-stats.ts';
import { BarChart } from '../ui/BarChart.tsx';
import { SelectField } from '../ui/Field.tsx';
import { LoadFailed } from '../ui/LoadFailed.tsx';
import { useLoaded } from '../ui/use-loaded.ts';
import { TableScroll } from '../ui/TableScroll.tsx';

const PERIOD_OPTIONS = STATS_PERIODS.map((days) => ({ value: days, label: `Last ${days} days` }));

function DownloadsTable({ stats, days }: { stats: ReturnType<typeof downloadsByVersion>; days: number }) {
  const captionId = useId();
  if (stats.rows.length === 0) return <p className="empty-note">No downloads in the last {days} days.</p>;
  return (
    <>
      <BarChart
        name={`Bar chart of downloads by version in the last ${days} days; the table below gives the numbers.`}
        bars={stats.rows.map((row) => ({ label: row.version, value: row.total }))}
      />
      <TableScroll labelledBy={captionId}>
        <table className="releases-table stats-table">
          <caption id={captionId}>Downloads by version and platform, last {days} days</caption>
          <thead>
            <tr>
              <th scope="col">Version</th>
              {stats.platforms.map((platform) => (
                <th key={platform.key} scope="col" className="stats-table__number">
                  {platform.label}
                </th>
              ))}
              <th scope="col" className="stats-table__number">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {stats.rows.map((row) => (
              <tr key={row.version}>
                <th scope="row">{row.version}</th>
                {stats.platforms.map((platform) => (
                  <td key={platform.key} className="stats-table__number">
                    {row.counts[platform.key] ?? 0}
                  </td>
                ))}
                <td className="stats-table__number">{row.total}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">All versions</th>
              {stats.platforms.map((platform) => (
                <td key={platform.key} className="stats-table__number">
                  {stats.rows.reduce((sum, row) => sum + (row.counts[platform.key] ?? 0), 0)}
                </td>
              ))}
              <td className="stats-table__number">{stats.total}</td>
            </tr>
          </tfoot>
        </table>
      </TableScroll>
    </>
  );
}

function ChecksTable({ checks, days }: { checks: ReturnType<typeof checksByVersion>; days: number }) {
  const captionId = useId();
  if (checks.length === 0) return null;
  return (
    <>
      <BarChart
        name={`Bar chart of update checks by version in the last ${days} days; the table below gives the numbers.`}
        bars={checks.map((row) => ({ label: row.version, value: row.count }))}
      />
      <TableScroll labelledBy={captionId}>
        <table className="releases-table stats-table">
          <caption id={captionId}>Update checks by reported version, last {days} days</caption>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col" className="stats-table__number">
                Checks
              </th>
            </tr>
          </thead>
          <tbody>
            {checks.map((row) => (
              <tr key={row.version}>
                <th scope="row">{row.version}</th>
                <td className="stats-table__number">{row.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}

export function DownloadStats() {
  const headingId = useId();
  const [days, setDays] = useState(30);
  // Each answer carries its period: while another period loads, the shown numbers keep their own heading.
  const load = useCallback(() => fetchDownloadStats(days).then((stats) => ({ days, stats })), [days]);
  const { value: loaded, failed, reload } = useLoaded(load, 'the download statistics');
  const loading = !failed && loaded?.days !== days;

  return (
    <section className="download-stats" aria-labelledby={headingId}>
      <h2 id={headingId}>Download statistics</h2>
      <SelectField
        label="Period"
        name="days"
        value={String(days)}
        onChange={(value) => setDays(Number(value))}
        options={PERIOD_OPTIONS}
        className="download-stats__period"
      />
      {failed && <LoadFailed what="the download statistics" onRetry={() => void reload()} />}
      <p className="download-stats__loading" role="status">
        {loading ? 'Loading the statistics…' : ''}
      </p>
      {loaded && (
        <div className="download-stats__body">
          <h3>Downloads</h3>
          <DownloadsTable stats={downloadsByVersion(loaded.stats.downloads)} days={loaded.days} />
          <h3>Update checks</h3>
          <p className="download-stats__latest">{onLatestText(loaded.stats.on_latest_pct, loaded.days)}</p>
          <ChecksTable checks={checksByVersion(loaded.stats.checks)} days={loaded.days} />
        </div>
      )}
    </section>
  );
}
