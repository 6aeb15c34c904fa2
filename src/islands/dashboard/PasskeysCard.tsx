// The dashboard's "Passkeys" card (docs/product/accounts.md#passkeys): each passkey with its name, whether it is
// synced or on one device, when it was added and last used, Rename and Remove; and Add a passkey. A passkey
// refused as a possible copy says so. Browsers without WebAuthn see why the button is missing.
import { useCallback, useEffect, useState } from 'react';
import { listPasskeys, removePasskey, type PasskeyItem, type PasskeyList } from '../../lib/api/passkeys.ts';
import { passkeysSupported } from '../../lib/webauthn.ts';
import { Message } from '../ui/Message.tsx';
import type { FormMessage } from '../ui/form-errors.ts';
import type { Confirm } from '../ui/use-confirm.tsx';
import { When } from '../ui/When.tsx';
import { PasskeyDialog, type PasskeyAction } from './PasskeyDialog.tsx';

function kindOf(passkey: PasskeyItem): string {
  if (passkey.backed_up === 1) return 'Synced passkey';
  return passkey.device_type === 'multiDevice' ? 'Can be synced, not synced yet' : 'On this device only';
}

function PasskeyRow({ passkey, onAction }: { passkey: PasskeyItem; onAction: (kind: 'rename' | 'remove') => void }) {
  return (
    <li className="sessions__item">
      <div className="sessions__text">
        <span className="sessions__name">
          {passkey.name}
          {passkey.suspected_clone === 1 && <span className="sessions__badge">Refused: may have been copied</span>}
        </span>
        <span className="sessions__meta">
          {kindOf(passkey)} · added <When value={passkey.created_at} /> · last used {passkey.last_used_at ? <When value={passkey.last_used_at} /> : 'never'}
        </span>
      </div>
      <span className="passkeys__buttons">
        <button type="button" className="button button--secondary button--small" aria-haspopup="dialog" onClick={() => onAction('rename')}>
          Rename<span className="sr-only"> {passkey.name}</span>
        </button>
        <button type="button" className="button button--secondary button--small" aria-haspopup="dialog" onClick={() => onAction('remove')}>
          Remove<span className="sr-only"> {passkey.name}</span>
        </button>
      </span>
    </li>
  );
}

export function PasskeysCard({ confirm }: { confirm: Confirm }) {
  const [list, setList] = useState<PasskeyList | null>(null);
  const [failed, setFailed] = useState(false);
  const [supported, setSupported] = useState<boolean | null>(null);
  const [action, setAction] = useState<PasskeyAction | null>(null);
  const [message, setMessage] = useState<FormMessage | null>(null);

  const load = useCallback(async () => {
    try {
      setList(await listPasskeys());
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);

  useEffect(() => {
    let live = true;
    listPasskeys().then(
      (fresh) => live && setList(fresh),
      () => live && setFailed(true),
    );
    passkeysSupported().then(
      (yes) => live && setSupported(yes),
      () => live && setSupported(false),
    );
    return () => {
      live = false;
    };
  }, []);

  const changed = (text: string) => {
    setMessage({ text, tone: 'success' });
    void load();
  };

  const act = async (passkey: PasskeyItem, kind: 'rename' | 'remove') => {
    setMessage(null);
    // Within 5 minutes of a passkey sign-in the server needs no password: one Ok/Cancel is enough.
    if (kind === 'remove' && list && !list.password_needed.remove) {
      const ok = await confirm({ title: 'Remove passkey', message: `Remove ${passkey.name}? It will no longer sign you in.`, confirmLabel: 'Remove' });
      if (!ok) return;
      try {
        await removePasskey(passkey.id, undefined);
        changed(`${passkey.name} has been removed.`);
      } catch {
        // The 5 minutes ran out meanwhile: ask for the password instead.
        setAction({ kind: 'remove', passkey });
      }
      return;
    }
    setAction({ kind, passkey });
  };

  return (
    <section className="card account-section" aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading" className="card__title">
        Passkeys
      </h2>
      <p>Sign in with your fingerprint, face or screen lock instead of your password. A passkey works only on this site, so a fake page cannot steal it.</p>
      {failed && <p className="form-message__text form-message__text--error">Your passkeys could not be loaded. Please reload the page.</p>}
      {list === null ? (
        !failed && <p className="empty-note">Loading your passkeys…</p>
      ) : list.passkeys.length === 0 ? (
        <p className="empty-note">No passkeys yet.</p>
      ) : (
        <ul className="sessions" aria-label="Your passkeys">
          {list.passkeys.map((passkey) => (
            <PasskeyRow key={passkey.id} passkey={passkey} onAction={(kind) => void act(passkey, kind)} />
          ))}
        </ul>
      )}
      {supported === false && <p className="empty-note">This browser cannot create passkeys.</p>}
      {supported && list && (
        <div className="dashboard__actions account-section__actions">
          <button
            type="button"
            className="button"
            aria-haspopup="dialog"
            onClick={() => {
              setMessage(null);
              setAction({ kind: 'add', needsPassword: list.password_needed.add });
            }}
          >
            Add a passkey
          </button>
        </div>
      )}
      <Message message={message} />
      <PasskeyDialog action={action} onClose={() => setAction(null)} onChanged={changed} />
    </section>
  );
}
