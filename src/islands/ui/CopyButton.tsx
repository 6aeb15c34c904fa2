// A Copy button for a value shown on the page (a release's SHA-256, a license key): the React twin of the
// static page's copy buttons (src/scripts/copy-buttons.ts), with the same fallback (the text is selected
// for Ctrl+C where the Clipboard API is missing or refused). The result ('Copied') is announced by a live
// region that exists before any text arrives.
import { useEffect, useRef, useState } from 'react';
import { copyElementText } from '../../scripts/copy-buttons.ts';

const CONFIRM_MS = 2000;

/** `className`: the small inline style by default; a full button where it stands among buttons (recovery codes). */
export function CopyButton({ targetId, label, className = 'copy-button' }: { targetId: string; label: string; className?: string }) {
  const [status, setStatus] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    const target = document.getElementById(targetId);
    if (!target) return;
    setStatus(await copyElementText(target));
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setStatus(''), CONFIRM_MS);
  };

  return (
    <>
      <button type="button" className={className} onClick={() => void copy()} aria-label={label}>
        Copy
      </button>
      <span className="copy-status" role="status" aria-live="polite">
        {status}
      </span>
    </>
  );
}
