// API tokens under Integrations (docs/integrations.md#api-tokens): create one for the shop or CRM (shown once),
// see when each was last used, revoke one. The server keeps only hashes, so a lost token is revoked and made anew.
import { useRef, useState } from 'react';
import { Field } from '../ui/Field.tsx';
import { Message } from '../ui/Message.tsx';
import { SubmitButton } from '../ui/SubmitButton.tsx';
import { serverMessage } from '../ui/form-errors.ts';
import { useFormSubmit } from '../ui/use-form-submit.ts';
import { useLoaded } from '../ui/use-loaded.ts';
import type { Confirm } from '../ui/use-confirm.tsx';
import { formatAdminDate } from './dates.ts';
import { ChoiceList } from './ChoiceList.tsx';
import { ShownOnce } from './ShownOnce.tsx';
import { API_SCOPE_NAMES, createApiToken, listApiTokens, revokeApiToken, type ApiToken } from '../../lib/api/integrations.ts';
import { LoadFailed } from '../ui/LoadFailed.tsx';
import { ActionsHeader, TableScroll } from '../ui/TableScroll.tsx';

function tokenState(token: ApiToken): string {
  if (token.revoked_at) return `Revoked ${formatAdminDate(token.revoked_at) ?? ''}`;
  if (token.expires_at && Date.parse(token.expires_at) <= Date.now()) return 'Expired';
  return token.expires_at ? `Expires ${formatAdminDate(token.expires_at) ?? ''}` : 'Never expires';
}

export function ApiTokensSection({ confirm }: { confirm: Confirm }) {
  const { value: tokens, setValue: setTokens, failed, reload } = useLoaded(listApiTokens, 'the API tokens');
  const [name, setName] = useState('');
  const [days, setDays] = useState('90');
  const [scopes, setScopes] = useState<Set<string>>(new Set());
  const [shown, setShown] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: ['name', 'scopes', 'expires_days'], busyLabel: 'Creating…' });

  const create = form.onSubmit(async () => {
    const answer = await createApiToken({ name, scopes: API_SCOPE_NAMES.filter((scope) => scopes.has(scope)), expires_days: Number(days) });
    setTokens((list) => [...(list ?? []), answer.api_token]);
    setShown(answer.token);
    setName('');
    setScopes(new Set());
    return { text: 'API token created.', tone: 'success' };
  });

  const revoke = async (token: ApiToken) => {
    const ok = await confirm({ title: 'Revoke API token', message: `Revoke "${token.name}"? Calls with it are refused at once.`, confirmLabel: 'Revoke' });
    if (!ok) return;
    try {
      await revokeApiToken(token.id);
      await reload();
      form.setMessage({ text: `Revoked "${token.name}".`, tone: 'success' });
    } catch (error) {
      form.setMessage({ text: serverMessage(error), tone: 'error' });
    }
  };

  return (
    <section className="admin-integrations__part" aria-labelledby="api-tokens-heading">
      <h3 id="api-tokens-heading">API tokens</h3>
      <p className="field__hint">
        For the shop, the CRM and scripts calling /api/v1/ (reference: <a href="/api/reference">API reference</a>).
      </p>
      {shown && <ShownOnce label="API token" value={shown} onDone={() => setShown(null)} />}
      <form ref={formRef} className="admin-integrations__form" noValidate onSubmit={create} aria-busy={form.busy}>
        <Field label="Name" name="name" value={name} onChange={setName} error={form.errors.name} autoComplete="off" hint="Who uses it, such as Shop or CRM." />
        <ChoiceList legend="Scopes" name="scopes" options={API_SCOPE_NAMES} chosen={scopes} onChange={setScopes} error={form.errors.scopes} />
        <Field
          label="Expires in days"
          name="expires_days"
          value={days}
          onChange={setDays}
          error={form.errors.expires_days}
          inputMode="numeric"
          hint="0: never expires."
        />
        <SubmitButton label="Create Token" busyLabel={form.busyLabel} />
      </form>
      <Message message={form.message} />
      {failed && <LoadFailed what="the API tokens" onRetry={() => void reload()} />}
      {tokens?.length === 0 && <p className="empty-note">No API token yet.</p>}
      {tokens && tokens.length > 0 && (
        <TableScroll label="API tokens table">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scopes</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
                <ActionsHeader />
              </tr>
            </thead>
            <tbody>
              {tokens.map((token) => (
                <tr key={token.id}>
                  <th scope="row">{token.name}</th>
                  <td>{token.scopes.join(', ')}</td>
                  <td>{formatAdminDate(token.created_at)}</td>
                  <td>{formatAdminDate(token.last_used_at, true) ?? 'Never'}</td>
                  <td>{tokenState(token)}</td>
                  <td className="admin-table__action">
                    {!token.revoked_at && (
                      <button
                        type="button"
                        className="button button--secondary button--admin-tiny button--admin-danger-outline"
                        aria-haspopup="dialog"
                        onClick={() => void revoke(token)}
                      >
                        Revoke<span className="sr-only"> {token.name}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
