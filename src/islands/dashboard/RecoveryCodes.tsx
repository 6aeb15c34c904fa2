// The recovery codes, shown once after enabling two-factor or making new ones
// (docs/product/accounts.md#two-factor-sign-in): a list to copy, and a .txt to download and keep.
import { useId } from 'react';
import { saveBlob } from '../../lib/api/transfer.ts';
import { CopyButton } from '../ui/CopyButton.tsx';

function codesFile(codes: readonly string[], site: string): Blob {
  const lines = [`Recovery codes for ${site}`, 'Each code signs you in once when you cannot use your authenticator app.', '', ...codes, ''];
  return new Blob([lines.join('\n')], { type: 'text/plain;charset=utf-8' });
}

export function RecoveryCodes({ codes }: { codes: readonly string[] }) {
  const id = useId();
  const site = window.location.host;
  return (
    <div className="recovery-codes">
      <p>
        <strong>Save these recovery codes now: they are shown only once.</strong> Each one signs you in once if you lose your phone.
      </p>
      <pre id={id} className="recovery-codes__list" tabIndex={0} aria-label="Recovery codes">
        {codes.join('\n')}
      </pre>
      <div className="dashboard__actions">
        <button type="button" className="button button--secondary" onClick={() => saveBlob(codesFile(codes, site), `${site}-recovery-codes.txt`)}>
          Download (.txt)
        </button>
        <CopyButton targetId={id} label="Copy the recovery codes" />
      </div>
    </div>
  );
}
