// A titled notice with a dismiss button (the dashboard's 'Request Sent' and 'Request Failed!'). It takes
// focus when it appears: it usually replaces the button that was just pressed, and focus would otherwise
// fall back to the top of the page.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import type { Tone } from './form-errors.ts';

interface AlertProps {
  title: string;
  tone: Tone;
  children: ReactNode;
  onDismiss: () => void;
}

export function Alert({ title, tone, children, onDismiss }: AlertProps) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useEffect(() => ref.current?.focus(), []);
  return (
    <div ref={ref} className={`alert alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'} aria-labelledby={titleId} tabIndex={-1}>
      <div className="alert__body">
        <p className="alert__title" id={titleId}>
          {title}
        </p>
        <div className="alert__text">{children}</div>
      </div>
      <button type="button" className="alert__close" onClick={onDismiss} aria-label={`Dismiss: ${title}`}>
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
