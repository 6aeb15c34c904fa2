// "Download license file" on a license card (issue 12, item 6; docs/licensing.md): for an offline or
// air-gapped machine the user pastes the machine's fingerprint (the software shows it) and gets a file
// bound to that machine, `<key>.lic`. The download activates that machine, so it takes one of the seats.
import { useEffect, useRef, useState } from 'react';
import { downloadLicenseFile } from '../../lib/api/account.ts';
import { Field } from '../ui/Field.tsx';
import { Message } from '../ui/Message.tsx';
import { SubmitButton } from '../ui/SubmitButton.tsx';
import { useFormSubmit } from '../ui/use-form-submit.ts';

const FIELDS = ['fingerprint', 'name'] as const;

interface LicenseFileFormProps {
  licenseId: number;
  licenseKey: string | null;
  /** After a download: the machine list changed (a new or renewed machine). */
  onDownloaded: () => Promise<void> | void;
  /** Changes when another action on the card reported: this form's old notice then goes (issue 28, 2.6). */
  dismissKey?: number;
}

export function LicenseFileForm({ licenseId, licenseKey, onDownloaded, dismissKey = 0 }: LicenseFileFormProps) {
  const [fingerprint, setFingerprint] = useState('');
  const [name, setName] = useState('');
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: FIELDS, busyLabel: 'Preparing…' });
  const fileName = `${licenseKey ?? `license-${licenseId}`}.lic`;
  const { setMessage } = form;
  useEffect(() => {
    if (dismissKey > 0) setMessage(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- setMessage is a new function each render; only the key matters.
  }, [dismissKey]);

  const download = form.onSubmit(async () => {
    const input = { fingerprint: fingerprint.trim(), ...(name.trim() ? { name: name.trim() } : {}) };
    await downloadLicenseFile(licenseId, input, fileName);
    await onDownloaded();
    return { text: `${fileName} downloaded. Copy it to the machine; it is valid for that machine only.`, tone: 'success' };
  });

  return (
    <details className="license-file">
      <summary className="license-file__summary">Download license file</summary>
      <form ref={formRef} className="form license-file__form" noValidate onSubmit={download} aria-busy={form.busy}>
        <p className="field__hint">For a machine without internet: the software shows its fingerprint. The file activates that machine.</p>
        <Field
          label="Machine fingerprint"
          name="fingerprint"
          value={fingerprint}
          onChange={setFingerprint}
          error={form.errors.fingerprint}
          autoComplete="off"
        />
        <Field label="Machine name (optional)" name="name" value={name} onChange={setName} error={form.errors.name} autoComplete="off" />
        <Message message={form.message} />
        <SubmitButton label="Download file" busyLabel={form.busyLabel} />
      </form>
    </details>
  );
}
