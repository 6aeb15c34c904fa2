// The dashboard's "Two-factor sign-in" card (docs/product/accounts.md#two-factor-sign-in): whether it is on,
// Enable (TwoFactorSetupDialog), and while on, Turn off and New recovery codes (TwoFactorConfirmDialog). An
// admin who must turn it on first is told so here (the admin screen sends them to this page).
import { useState } from 'react';
import { loadCurrentUser } from '../../lib/api/session.ts';
import { formatDate } from '../../lib/format.ts';
import { mustEnrollTwoFactor, type CurrentUser } from '../../stores/session.ts';
import { Message } from '../ui/Message.tsx';
import type { FormMessage } from '../ui/form-errors.ts';
import { TwoFactorConfirmDialog, type ConfirmAction } from './TwoFactorConfirmDialog.tsx';
import { TwoFactorSetupDialog } from './TwoFactorSetupDialog.tsx';

async function reloadUser(): Promise<void> {
  try {
    await loadCurrentUser();
  } catch (error) {
    console.error('Could not reload the user', error);
  }
}

export function TwoFactorCard({ user }: { user: CurrentUser }) {
  const [settingUp, setSettingUp] = useState(false);
  const [confirming, setConfirming] = useState<ConfirmAction | null>(null);
  const [message, setMessage] = useState<FormMessage | null>(null);
  const on = Boolean(user.two_factor_enabled_at);

  return (
    <section className="card two-factor-card" aria-labelledby="two-factor-heading">
      <h2 id="two-factor-heading" className="card__title">
        Two-factor sign-in
      </h2>
      {mustEnrollTwoFactor(user) && (
        <p className="two-factor-card__required" role="alert">
          Two-factor sign-in is required for administrators. Turn it on to use the admin screen.
        </p>
      )}
      <p>
        {on ? (
          <>
            <strong>On</strong> since {formatDate(user.two_factor_enabled_at)}. Signing in asks for a code from your authenticator app after your password.
          </>
        ) : (
          <>
            <strong>Off.</strong> Turn it on so that a stolen password alone cannot open your account: signing in will also ask for a code from an authenticator
            app on your phone.
          </>
        )}
      </p>
      <div className="dashboard__actions">
        {on ? (
          <>
            <button type="button" className="button button--secondary" aria-haspopup="dialog" onClick={() => setConfirming('regenerate')}>
              New recovery codes
            </button>
            <button type="button" className="button button--secondary" aria-haspopup="dialog" onClick={() => setConfirming('disable')}>
              Turn off
            </button>
          </>
        ) : (
          <button
            type="button"
            className="button"
            aria-haspopup="dialog"
            onClick={() => {
              setMessage(null);
              setSettingUp(true);
            }}
          >
            Enable two-factor sign-in
          </button>
        )}
      </div>
      <Message message={message} />
      <TwoFactorSetupDialog
        open={settingUp}
        onClose={() => {
          setSettingUp(false);
          void reloadUser();
        }}
        onEnabled={() => {
          setMessage({ text: 'Two-factor sign-in is on.', tone: 'success' });
          // Read now, not when the dialog closes: behind the recovery codes the card said 'Off' beside
          // 'is on' (issue 28, 2.14).
          void reloadUser();
        }}
      />
      <TwoFactorConfirmDialog
        action={confirming}
        onClose={() => setConfirming(null)}
        onDisabled={() => {
          setMessage({ text: 'Two-factor sign-in is off.', tone: 'success' });
          void reloadUser();
        }}
      />
    </section>
  );
}
