// 'Manage Banned Domains' (docs/product/admin.md#admin-screen; issue 7, item 3): a text input with Add Domain, and the table of
// banned domains (ID, Domain, Date Banned, Date Updated, Delete Domain). The server normalises what was
// typed ('@Spam.COM' → 'spam.com') and refuses duplicates and non-domains with a message under the field.
// A ban does not touch existing accounts, so the users a ban covers are listed for the admin to act on.
// The table fits the dialog on a desktop (long domains wrap); on a phone it scrolls sideways with the
// Delete Domain column pinned at the right edge, so the button is never cut off.
import { useRef, useState } from 'react';
import { formatAdminDate } from './dates.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Field } from '../ui/Field.tsx';
import { Message } from '../ui/Message.tsx';
import { SubmitButton } from '../ui/SubmitButton.tsx';
import { serverMessage } from '../ui/form-errors.ts';
import { useFormSubmit } from '../ui/use-form-submit.ts';
import { useLoaded } from '../ui/use-loaded.ts';
import { banDomain, listBannedDomains, unbanDomain, type BannedDomain } from '../../lib/api/admin.ts';
import type { Confirm } from '../ui/use-confirm.tsx';
import { LoadFailed } from '../ui/LoadFailed.tsx';
import { ActionsHeader, TableScroll } from '../ui/TableScroll.tsx';

function When({ value }: { value: string }) {
  return <time dateTime={value}>{formatAdminDate(value, true) ?? value}</time>;
}

function CoveredUsers({ domain }: { domain: BannedDomain }) {
  if (domain.users_count === 0) return <>None</>;
  const more = domain.users_count - domain.users.length;
  return (
    <details className="admin-covered-users">
      <summary>
        {domain.users_count} {domain.users_count === 1 ? 'user' : 'users'}
      </summary>
      <ul>
        {domain.users.map((user) => (
          <li key={user.id}>
            {user.email} <span className="admin-covered-users__id">(ID {user.id})</span>
          </li>
        ))}
        {more > 0 && <li>… and {more} more</li>}
      </ul>
    </details>
  );
}

function addedMessage(message: string, domain: BannedDomain): string {
  if (domain.users_count === 0) return `${message} No existing user has an address in ${domain.domain}.`;
  const listed = domain.users
    .slice(0, 5)
    .map((user) => user.email)
    .join(', ');
  const rest = domain.users_count > 5 ? ` and ${domain.users_count - 5} more` : '';
  return `${message} ${domain.users_count} existing ${domain.users_count === 1 ? 'user has' : 'users have'} an address in ${domain.domain}: ${listed}${rest}. Their accounts are unchanged; ban or delete them in the users table if needed.`;
}

interface BannedDomainsProps {
  confirm: Confirm;
}

function DomainsTable({ domains, onRemove }: { domains: BannedDomain[]; onRemove: (domain: BannedDomain) => void }) {
  return (
    <TableScroll label="Banned domains">
      <table className="admin-table">
        <thead>
          <tr>
            <th scope="col">ID</th>
            <th scope="col">Domain</th>
            <th scope="col">Date Banned</th>
            <th scope="col">Date Updated</th>
            <th scope="col">Existing users</th>
            <ActionsHeader />
          </tr>
        </thead>
        <tbody>
          {domains.map((domain) => (
            <tr key={domain.id}>
              <td>{domain.id}</td>
              <th scope="row">{domain.domain}</th>
              <td>
                <When value={domain.created_at} />
              </td>
              <td>
                <When value={domain.updated_at} />
              </td>
              <td>
                <CoveredUsers domain={domain} />
              </td>
              <td className="admin-table__action">
                <button
                  type="button"
                  className="button button--secondary button--admin-tiny button--admin-danger-outline"
                  aria-haspopup="dialog"
                  onClick={() => onRemove(domain)}
                >
                  Delete Domain<span className="sr-only"> {domain.domain}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function BannedDomains({ confirm }: BannedDomainsProps) {
  const { value: domains, setValue: setDomains, failed: loadFailed, reload: load } = useLoaded(listBannedDomains, 'the banned domains');
  const [input, setInput] = useState('');
  // After a refusal, and after a delete took the pressed button away, focus goes back to the input.
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: ['domain'], busyLabel: 'Adding…', focusFallback: () => domainInput() });
  const domainInput = () => formRef.current?.querySelector<HTMLInputElement>('input[name="domain"]');

  const add = form.onSubmit(async () => {
    const answer = await banDomain(input);
    setDomains((list) => [...(list ?? []).filter((item) => item.id !== answer.domain.id), answer.domain].sort((a, b) => a.id - b.id));
    setInput('');
    return { text: addedMessage(answer.message, answer.domain), tone: 'success' };
  });

  const remove = async (domain: BannedDomain) => {
    const ok = await confirm({
      title: 'Delete Domain',
      message: `Remove ${domain.domain} from the banned list? Addresses in it can register again.`,
      confirmLabel: 'Delete Domain',
    });
    if (!ok) return;
    // An old refusal of the domain field is about another attempt: it goes with the delete's outcome.
    form.clear();
    try {
      const answer = await unbanDomain(domain.id);
      setDomains((list) => (list ?? []).filter((item) => item.id !== domain.id));
      form.setMessage({ text: `${answer.message} (${domain.domain})`, tone: 'success' });
      domainInput()?.focus();
    } catch (failure) {
      form.setMessage({ text: serverMessage(failure), tone: 'error' });
    }
  };

  return (
    <div className="admin-banned-domains">
      <form ref={formRef} className="admin-banned-domains__form" noValidate onSubmit={add} aria-busy={form.busy}>
        <Field
          label="Domain"
          name="domain"
          value={input}
          onChange={setInput}
          error={form.errors.domain}
          autoComplete="off"
          autoFocusOnOpen
          hint="For example spam.example; its subdomains are banned with it."
        />
        <SubmitButton label="Add Domain" busyLabel={form.busyLabel} />
      </form>
      <Message message={form.message} />
      {loadFailed && <LoadFailed what="the banned domains" onRetry={() => void load()} />}
      {domains === null && !loadFailed && <p className="empty-note">Loading the banned domains…</p>}
      {domains?.length === 0 && <p className="empty-note">No domain is banned.</p>}
      {domains && domains.length > 0 && <DomainsTable domains={domains} onRemove={(domain) => void remove(domain)} />}
    </div>
  );
}

interface BannedDomainsDialogProps extends BannedDomainsProps {
  open: boolean;
  onClose: () => void;
}

export function BannedDomainsDialog({ open, onClose, confirm }: BannedDomainsDialogProps) {
  return (
    <Dialog title="Manage Banned Domains" open={open} onClose={onClose} size="wide">
      {open && <BannedDomains confirm={confirm} />}
    </Dialog>
  );
}
