// A moment shown relative to now ("5 minutes ago"), with the exact date and time in its title and
// datetime attribute: machines' check-ins, sessions' sign-in and last use.
import { formatDate } from '../../lib/format.ts';
import { formatRelativeTime } from '../../lib/relative-time.ts';

export function When({ value }: { value: string }) {
  const exact = formatDate(value, true);
  const relative = formatRelativeTime(new Date(value), new Date());
  return (
    <time dateTime={value} title={exact}>
      {relative ?? exact ?? value}
    </time>
  );
}
