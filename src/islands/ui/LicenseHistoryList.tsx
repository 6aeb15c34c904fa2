// A license's history in words (issue 24, item 5): one list for the owner's dashboard card and the admin's
// History, each event one sentence and a UTC time from common/license-history.ts, so both say the same.
import { historyTime, licenseEventActor, licenseEventText, type LicenseEventLike } from '../../../common/license-history.ts';

export function LicenseHistoryList({ events }: { events: readonly (LicenseEventLike & { id: number })[] }) {
  if (events.length === 0) return null;
  return (
    <ol className="license-history__list">
      {events.map((event) => (
        <li key={event.id} className="license-history__item">
          <time dateTime={event.created_at}>{historyTime(event.created_at)}</time> <strong>{licenseEventText(event)}</strong>{' '}
          <span className="license-history__actor">{licenseEventActor(event)}</span>
        </li>
      ))}
    </ol>
  );
}
