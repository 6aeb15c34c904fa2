// A license key with its Copy button (issue 12, item 6): the key is what the user types or pastes into
// the software. Monospace and wrapping anywhere, so a 35-character key fits a phone.
import { useId } from 'react';
import { CopyButton } from '../ui/CopyButton.tsx';

export function LicenseKey({ value }: { value: string | null }) {
  const id = useId();
  if (!value) return <span className="is-empty">Not available</span>;
  return (
    <span className="license-key">
      <code id={id} className="license-key__value">
        {value}
      </code>
      <CopyButton targetId={id} label="Copy the license key" />
    </span>
  );
}
