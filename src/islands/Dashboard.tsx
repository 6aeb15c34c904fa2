// /dashboard (docs/product/accounts.md#dashboard): the user card with Edit; under Licenses the Request License button (only
// while nothing is requested and no license is active, beside the sentence that offers it: issue 28, 2.7), the license
// cards (key, status, machines, license file; issue 12, item 6), 'License requested – awaiting approval' while a request waits, and the 'Request Sent' /
// 'Request Failed!' alerts; then "My software", the releases each license gives (issue 25, item 6). Below, the account's security (issue 13): the two-factor sign-in card
// (users/TwoFactorCard.tsx), where the user is signed in, change password, change e-mail
// (src/islands/account/), and last the "Your data" card (download it, delete the account). The nav bar's
// script loads the user into $user; this island reads it and reloads it after a machine changed. It is
// mounted by src/scripts/dashboard-page.ts only for a signed-in user (docs/decisions/0038-guarded-islands.md),
// which also shows what is seen while nobody is.
import { useStore } from '@nanostores/react';
import { StrictMode, useState, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { requestLicense as sendLicenseRequest } from '../lib/api/account.ts';
import { ApiError } from '../lib/api/request.ts';
import { loadCurrentUser } from '../lib/api/session.ts';
import { $licenses, $supportEmail, $user, setSession, type CurrentUser, type LicenseView } from '../stores/session.ts';
import { AccountSessions } from './account/AccountSessions.tsx';
import { ChangeEmailForm } from './account/ChangeEmailForm.tsx';
import { ChangePasswordForm } from './account/ChangePasswordForm.tsx';
import { Alert } from './ui/Alert.tsx';
import { useConfirm, type Confirm } from './ui/use-confirm.tsx';
import { LicenseCard } from './dashboard/LicenseCard.tsx';
import { MySoftware } from './dashboard/MySoftware.tsx';
import { OwnDataCard } from './dashboard/OwnDataCard.tsx';
import { SupportCard } from './dashboard/SupportCard.tsx';
import { TwoFactorCard } from './dashboard/TwoFactorCard.tsx';
import { PasskeysCard } from './dashboard/PasskeysCard.tsx';
import { UserCard } from './dashboard/UserCard.tsx';
import { UserFormDialog } from './dashboard/UserFormDialog.tsx';

type RequestResult = { kind: 'sent'; email: string } | { kind: 'granted'; email: string } | { kind: 'failed'; reason: string | undefined };

/** `supportEmail`: SUPPORT_EMAIL or the first admin's address, from the session answer (docs/product/accounts.md#dashboard). */
function RequestAlert({ result, supportEmail, onDismiss }: { result: RequestResult; supportEmail: string | null; onDismiss: () => void }) {
  if (result.kind === 'granted') {
    // Trials granted automatically (docs/admin-api.md#trials-granted-automatically-auto_grant_trials).
    return (
      <Alert title="Trial License Granted" tone="success" onDismiss={onDismiss}>
        <p>
          Your trial license is active: its key is below, and it has been e-mailed to <strong>{result.email}</strong>.
        </p>
      </Alert>
    );
  }
  if (result.kind === 'sent') {
    return (
      <Alert title="Request Sent" tone="success" onDismiss={onDismiss}>
        <p>
          Your license request has been sent to the administrator. A confirmation will be e-mailed to <strong>{result.email}</strong>, and you will receive
          another confirmation e-mail once the activation is granted.
        </p>
      </Alert>
    );
  }
  return (
    <Alert title="Request Failed!" tone="error" onDismiss={onDismiss}>
      {result.reason && <p>{result.reason}</p>}
      <p>
        There was a problem sending your request. Please try again later, or contact the administrator{' '}
        {supportEmail ? (
          <>
            at <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
          </>
        ) : (
          <>
            through the <a href="/contact">Contact Us</a> page.
          </>
        )}
      </p>
    </Alert>
  );
}

/** What "My software" depends on of the licenses: which there are and whether each is valid. */
const softwareKey = (licenses: readonly LicenseView[]) => licenses.map((license) => `${license.id}:${license.status.code}`).join(',');

/** Re-reads the user and their licenses (the machines changed); a failure leaves what is shown. */
async function reloadLicenses(): Promise<void> {
  try {
    await loadCurrentUser();
  } catch (error) {
    console.error('Could not reload the licenses', error);
  }
}

interface LicenseListProps {
  user: CurrentUser;
  licenses: readonly LicenseView[];
  confirm: Confirm;
  /** Request License, shown while nothing is requested and no license is active; null otherwise. */
  requestButton: ReactNode;
}

function LicenseList({ user, licenses, confirm, requestButton }: LicenseListProps) {
  const pending = Boolean(user.license_request) && !licenses.some((license) => Boolean(license.active));
  return (
    <section aria-labelledby="licenses-heading">
      <h2 id="licenses-heading" className="dashboard__heading">
        Licenses
      </h2>
      {pending && <p className="license-pending">License requested – awaiting approval</p>}
      {/* The sentence and the button it speaks of in one card (issue 28, 2.7). */}
      {licenses.length === 0 && !pending && (
        <div className="card license-empty">
          <p>You have no license yet. Request a free trial license to try the software.</p>
          {requestButton}
        </div>
      )}
      {licenses.length > 0 && requestButton && <div className="dashboard__actions license-request">{requestButton}</div>}
      {licenses.length > 0 && (
        <ul className="license-cards">
          {licenses.map((license) => (
            <li key={license.id}>
              <LicenseCard license={license} confirm={confirm} onChanged={reloadLicenses} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function LoggedInDashboard({ user }: { user: CurrentUser }) {
  const licenses = useStore($licenses);
  const supportEmail = useStore($supportEmail);
  const { confirm, dialog: confirmDialog } = useConfirm();
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const [requesting, setRequesting] = useState(false);
  const [result, setResult] = useState<RequestResult | null>(null);
  // Bumped after a password change, which ends the other sessions: the list is read again.
  const [sessionsVersion, setSessionsVersion] = useState(0);
  // An expired license no longer blocks a new request (issue 24, item 6): the server's rule in
  // hasActiveLicense, read here from the status it computed.
  const canRequest = !user.license_request && !licenses.some((license) => Boolean(license.active) && license.status.code !== 'EXPIRED');

  const requestLicense = async () => {
    if (requesting) return;
    setRequesting(true);
    setResult(null);
    try {
      const answer = await sendLicenseRequest(user.id);
      setSession(answer);
      setResult({ kind: answer.granted ? 'granted' : 'sent', email: answer.user.email });
    } catch (error) {
      console.error('The license request failed', error);
      // A reason the user can act on (e.g. an active license) is worth showing; a server fault is not.
      const reason = error instanceof ApiError && error.status < 500 && error.status !== 401 ? error.message : undefined;
      setResult({ kind: 'failed', reason });
    } finally {
      setRequesting(false);
    }
  };

  const requestButton = canRequest ? (
    <button type="button" className="button" onClick={() => void requestLicense()} aria-disabled={requesting || undefined}>
      {requesting ? 'Sending request…' : 'Request License'}
    </button>
  ) : null;

  return (
    <div className="dashboard">
      {result && <RequestAlert result={result} supportEmail={supportEmail} onDismiss={() => setResult(null)} />}
      <UserCard user={user}>
        <div className="dashboard__actions">
          <button
            type="button"
            className="button"
            onClick={() => {
              setSaved(false);
              setEditing(true);
            }}
            aria-haspopup="dialog"
          >
            Edit
          </button>
        </div>
        <div role="status" className="form-message">
          {saved && <p className="form-message__text form-message__text--success">Your details have been saved.</p>}
        </div>
      </UserCard>

      <TwoFactorCard user={user} />
      <PasskeysCard confirm={confirm} />

      <LicenseList user={user} licenses={licenses} confirm={confirm} requestButton={requestButton} />
      {/* Read again whenever the licenses change (a request granted, an admin's change seen on reload). */}
      <MySoftware key={softwareKey(licenses)} pendingRequest={Boolean(user.license_request)} verified={Boolean(user.email_verified_at)} />

      <SupportCard />

      <AccountSessions confirm={confirm} reloadKey={sessionsVersion} />
      <div className="account-forms">
        <ChangePasswordForm onChanged={() => setSessionsVersion((version) => version + 1)} />
        <ChangeEmailForm currentEmail={user.email} />
      </div>

      <OwnDataCard user={user} licenses={licenses} />

      <UserFormDialog
        open={editing}
        user={user}
        onCancel={() => setEditing(false)}
        onSaved={(updated) => {
          $user.set(updated);
          setEditing(false);
          setSaved(true);
        }}
      />
      {confirmDialog}
    </div>
  );
}

function Dashboard() {
  const user = useStore($user);
  // The loader unmounts the island when the session ends; until it does, nothing is drawn without a user.
  return user ? <LoggedInDashboard user={user} /> : null;
}

export function mountDashboard(container: HTMLElement): () => void {
  const root = createRoot(container);
  root.render(
    <StrictMode>
      <Dashboard />
    </StrictMode>,
  );
  return () => root.unmount();
}
