// The user card of docs/product/accounts.md#dashboard, shared by the dashboard and (with `admin`) the admin screen's user rows.
import { Fragment, type ReactNode } from 'react';
import type { CurrentUser } from '../../stores/session.ts';
import { YesNo } from './YesNo.tsx';

function Value({ text }: { text: string | null | undefined }) {
  return text ? <>{text}</> : <span className="is-empty">Not given</span>;
}

interface UserCardProps {
  user: CurrentUser;
  /** The admin view adds License Requested and License Granted. */
  admin?: boolean;
  title?: string;
  children?: ReactNode;
}

export function UserCard({ user, admin = false, title = 'Your details', children }: UserCardProps) {
  const rows: Array<[string, ReactNode]> = [
    ['Name', <Value text={user.name} />],
    ['Surname', <Value text={user.surname} />],
    ['Company Name', <Value text={user.companyName} />],
    ['Email', <Value text={user.email} />],
    ['Email Verified', <YesNo value={user.email_verified_at} />],
    ['Address', <Value text={user.address} />],
    ['Post Code', <Value text={user.postcode} />],
    ['County', <Value text={user.county} />],
    ['Country', <Value text={user.country} />],
    ['Phone', <Value text={user.phone} />],
    ['VAT No', <Value text={user.vat} />],
  ];
  if (admin) {
    rows.push(['License Requested', <YesNo value={user.license_request} />], ['License Granted', <YesNo value={user.license_granted} />]);
  }
  return (
    <section className="card user-card" aria-label={title}>
      <h2 className="card__title">{title}</h2>
      <dl className="details-list">
        {rows.map(([label, value]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
      </dl>
      {children}
    </section>
  );
}
