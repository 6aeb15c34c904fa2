// /email/verified (docs/product/accounts.md#e-mail-verification), where the verification link lands with validation (0 or 1), message
// and email in the query. Without `validation` the visitor is sent to /. Success: the message and 'Go To
// Dashboard'. Failure: the message and 'Re-Send Validation Link', which needs a session: a visitor who
// is not logged in gets the login modal first and the link is sent right after logging in. The e-mail
// change link (docs/product/accounts.md#change-e-mail) lands here too, with kind=email-change: a failure then
// offers the dashboard, where a new change can be asked for, instead of a verification mail.
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { resendVerificationMail } from '../lib/api/account.ts';
import { ApiError } from '../lib/api/request.ts';
import { openAccountDialog } from '../scripts/account-root.ts';
import { $user } from '../stores/session.ts';
import { Message } from './ui/Message.tsx';
import type { FormMessage } from './ui/form-errors.ts';

export const RESEND_MESSAGES = {
  sessionExpired: 'Session expired, please log in first!',
  failed: 'There was an error. Please try again later or contact admin.',
} as const;

interface VerificationResult {
  validated: boolean;
  message: string;
  email: string;
  emailChange: boolean;
}

function readResult(search: string): VerificationResult | null {
  const query = new URLSearchParams(search);
  const validation = query.get('validation');
  if (validation === null) return null;
  return {
    validated: validation === '1',
    message: query.get('message') ?? '',
    email: query.get('email') ?? '',
    emailChange: query.get('kind') === 'email-change',
  };
}

export default function EmailVerified() {
  const [result] = useState(() => readResult(window.location.search));
  const user = useStore($user);
  const [resendMessage, setResendMessage] = useState<FormMessage | null>(null);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (!result) window.location.replace('/');
  }, [result]);

  if (!result) return null;

  const resend = async () => {
    setSending(true);
    setResendMessage(null);
    try {
      const answer = await resendVerificationMail();
      setResendMessage({ text: answer.message, tone: 'success' });
    } catch (error) {
      console.error('Resending the verification e-mail failed', error);
      if (error instanceof ApiError && error.status === 401) {
        setResendMessage({ text: RESEND_MESSAGES.sessionExpired, tone: 'error' });
      } else if (error instanceof ApiError && error.status === 429) {
        // The throttle's own message says when trying again will work.
        setResendMessage({ text: error.message, tone: 'error' });
      } else {
        setResendMessage({ text: RESEND_MESSAGES.failed, tone: 'error' });
      }
    } finally {
      setSending(false);
    }
  };

  const onResend = () => {
    if (sending) return;
    if (user === null) void openAccountDialog('login', { email: result.email, onLoggedIn: () => void resend() });
    else void resend();
  };

  const onGoToDashboard = () => {
    // Not logged in yet: the login modal goes on to the dashboard (or /admin) by itself.
    if (user === null) void openAccountDialog('login', { email: result.email });
    else window.location.assign('/dashboard');
  };

  return (
    <div className="result-panel">
      {result.email && <p className="result-panel__email">{result.email}</p>}
      <p className={`form-message__text form-message__text--${result.validated ? 'success' : 'error'}`}>{result.message}</p>
      {result.validated || result.emailChange ? (
        <button type="button" className="button" onClick={onGoToDashboard}>
          Go To Dashboard
        </button>
      ) : (
        <>
          <button type="button" className="button" onClick={onResend} aria-disabled={sending || undefined}>
            {sending ? 'Sending…' : 'Re-Send Validation Link'}
          </button>
          <Message message={resendMessage} />
        </>
      )}
    </div>
  );
}
