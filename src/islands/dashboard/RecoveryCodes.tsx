// The recovery codes, shown once after enabling two-factor or making new ones
// (docs/product/accounts.md#two-factor-sign-in): a list to copy, and a .txt to download and keep, named after
// the product and the account (src/lib/recovery-codes-file.ts). Both buttons look alike: they are two ways
// of keeping the same codes (issue 28, 2.14).
import { useStore } from '@nanostores/react';
import { useId } from 'react';
import { saveBlob } from '../../lib/api/transfer.ts';
import { recoveryCodesFile, siteNameOfPage } from '../../lib/recovery-codes-file.ts';
import { $user } from '../../stores/session.ts';
import { CopyButton } from '../ui/CopyButton.tsx';

export function RecoveryCodes({ codes }: { codes: readonly string[] }) {
  const id = useId();
  const email = useStore($user)?.email ?? '';
  const download = () => {
    const file = recoveryCodesFile(siteNameOfPage(), email, codes);
    saveBlob(new Blob([file.text], { type: 'text/plain;charset=utf-8' }), file.name);
  };
  return (
    <div className="recovery-codes">
      <p>
        <strong>Save these recovery codes now: they are shown only once.</strong> Each one signs you in once if you lose your phone.
      </p>
      <pre id={id} className="recovery-codes__list" tabIndex={0} aria-label="Recovery codes">
        {codes.join('\n')}
      </pre>
      <div className="dashboard__actions">
        <button type="button" className="button button--secondary" onClick={download}>
          Download (.txt)
        </button>
        <CopyButton targetId={id} label="Copy the recovery codes" className="button button--secondary" />
      </div>
    </div>
  );
}
