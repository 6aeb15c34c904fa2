// The dashboard's "Your data" card (docs/product/accounts.md#your-data): Download my data, a plain link the
// browser saves (the session cookie is all the export needs), and Delete my account, which opens the
// dialog that names what goes and asks for the password.
import { useState } from 'react';
import { OWN_DATA_EXPORT_URL } from '../../lib/api/account.ts';
import type { CurrentUser, LicenseView } from '../../stores/session.ts';
import { DeleteAccountDialog } from './DeleteAccountDialog.tsx';

interface OwnDataCardProps {
  user: CurrentUser;
  licenses: readonly LicenseView[];
}

export function OwnDataCard({ user, licenses }: OwnDataCardProps) {
  const [deleting, setDeleting] = useState(false);
  return (
    <section className="card own-data" aria-labelledby="own-data-heading">
      <h2 className="card__title" id="own-data-heading">
        Your data
      </h2>
      <p>
        Download everything we keep about you (your details, licenses, sessions, downloads, mailings and messages) as one JSON file, or delete your account.
      </p>
      <div className="dashboard__actions">
        <a className="button button--secondary" href={OWN_DATA_EXPORT_URL} download>
          Download my data
        </a>
        <button type="button" className="button button--danger" onClick={() => setDeleting(true)} aria-haspopup="dialog">
          Delete my account
        </button>
      </div>
      <DeleteAccountDialog open={deleting} user={user} licenses={licenses} onCancel={() => setDeleting(false)} />
    </section>
  );
}
