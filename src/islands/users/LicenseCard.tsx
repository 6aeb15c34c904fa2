// A license card (docs/product/accounts.md#dashboard): type name, Active YES/NO, Activated at (or N/A), Expire date.
import { formatDate } from '../../lib/format.ts';
import type { LicenseView } from '../../stores/session.ts';
import { YesNo } from './YesNo.tsx';

function DateValue({ value, withTime = false }: { value: string | null; withTime?: boolean }) {
  const text = formatDate(value, withTime);
  return text && value ? <time dateTime={value}>{text}</time> : <>N/A</>;
}

export function LicenseCard({ license }: { license: LicenseView }) {
  const typeName = license.license_type?.name ?? 'Unknown';
  return (
    <article className="card license-card" aria-label={`License: ${typeName}`}>
      <dl className="details-list">
        <dt>License Type</dt>
        <dd className="license-card__type">{typeName}</dd>
        <dt>Active</dt>
        <dd>
          <YesNo value={license.active} />
        </dd>
        <dt>Activated at</dt>
        <dd>
          <DateValue value={license.activated_at} withTime />
        </dd>
        <dt>Expire date</dt>
        <dd>
          <DateValue value={license.expire_date} />
        </dd>
      </dl>
    </article>
  );
}
