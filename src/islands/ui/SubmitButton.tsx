// A submit button that says what is happening ('Checking…' while the bot check runs, then 'Sending…').
// It stays enabled and focusable while busy (aria-disabled, and the form ignores a second submit):
// disabling the focused button would drop keyboard focus to the top of the page.

interface SubmitButtonProps {
  label: string;
  busyLabel?: string | undefined;
  className?: string;
  /** Only before hydration: a native submit would send the form to the static page as a GET. */
  disabled?: boolean;
}

export function SubmitButton({ label, busyLabel, className = 'button', disabled = false }: SubmitButtonProps) {
  const busy = busyLabel !== undefined;
  return (
    <button type="submit" className={busy ? `${className} is-busy` : className} aria-disabled={busy || undefined} disabled={disabled || undefined}>
      {busy && <span className="spinner spinner--small" aria-hidden="true"></span>}
      {busy ? busyLabel : label}
    </button>
  );
}
