// A form's general message in a live region that exists before any text arrives, so screen readers
// announce a message when it appears (a region inserted together with its text is often missed).
import type { FormMessage } from './form-errors.ts';

export function Message({ message, id }: { message: FormMessage | null | undefined; id?: string }) {
  return (
    <div className="form-message" role="status" aria-live="polite" aria-atomic="true" id={id}>
      {message && <p className={`form-message__text form-message__text--${message.tone}`}>{message.text}</p>}
    </div>
  );
}
