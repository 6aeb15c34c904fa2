// The admin's in-place editor of the contact details on /contact (issue 28, section 1): address, e-mail and phone, each
// hidden on the page while empty. The overlay pattern of the content pages (docs/decisions/0015-content-admin-overlay.md):
// the Admin bar with Edit and the publish state, the form in place, and the details as saved shown at once while the publish
// brings them to the static page. Loaded only for admins by src/scripts/admin-overlay.ts.
import { StrictMode, useEffect, useId, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { fetchContactDetails, saveContactDetails, type ContactDetails } from '../../lib/api/site-pages.ts';
import { followPublish } from '../../stores/publish-status.ts';
import { Field } from '../ui/Field.tsx';
import type { FormMessage } from '../ui/form-errors.ts';
import { ContentAdminHead } from './ContentAdminHead.tsx';
import { EditorForm, useEditorForm } from './EditorForm.tsx';

const LOAD_FAILED = 'The contact details could not be loaded from the server. Reload the page to try again.';

function ContactDetailsForm({
  details,
  onSaved,
  onClose,
}: {
  details: ContactDetails;
  onSaved: (details: ContactDetails, message: string) => void;
  onClose: () => void;
}) {
  const [address, setAddress] = useState(details.address);
  const [email, setEmail] = useState(details.email);
  const [phone, setPhone] = useState(details.phone);
  const formRef = useRef<HTMLFormElement>(null);
  const form = useEditorForm(formRef, ['address', 'email', 'phone'], true);
  const save = async () => {
    const answer = await saveContactDetails({ address, email, phone });
    followPublish();
    onSaved(answer.details, answer.message);
  };
  return (
    <EditorForm
      form={form}
      formRef={formRef}
      className="post-form contact-details-form"
      data={{ 'data-contact-details-form': '' }}
      heading="Edit contact details"
      newButton={null}
      submitLabel="Save details"
      onClose={onClose}
      onSubmit={save}
    >
      <Field
        label="Address"
        name="address"
        value={address}
        onChange={setAddress}
        error={form.errors.address}
        multiline
        autoFocusOnOpen
        hint="Leave a field empty to hide it."
      />
      <Field label="E-mail" name="email" type="email" value={email} onChange={setEmail} error={form.errors.email} />
      <Field label="Phone" name="phone" type="tel" value={phone} onChange={setPhone} error={form.errors.phone} />
    </EditorForm>
  );
}

/** The details as the page shows them (src/pages/contact.astro), from the API. */
function DetailsPreview({ details }: { details: ContactDetails }) {
  if (!details.address && !details.email && !details.phone) return <p className="empty-note">No contact details: the page shows none.</p>;
  return (
    <section className="contact-details" aria-label="Contact details" data-contact-details-live>
      <h2 className="contact-details__title">Other ways to reach us</h2>
      <address className="contact-details__list">
        {details.address && <p className="contact-details__address">{details.address}</p>}
        {details.email && (
          <p>
            E-mail: <a href={`mailto:${details.email}`}>{details.email}</a>
          </p>
        )}
        {details.phone && (
          <p>
            Phone: <a href={`tel:${details.phone.replace(/[^0-9+]/g, '')}`}>{details.phone}</a>
          </p>
        )}
      </address>
    </section>
  );
}

/** `hideBuiltDetails` hides the page's own details while the overlay shows the database's, and answers how to undo it. */
export function ContactDetailsOverlay({ hideBuiltDetails }: { hideBuiltDetails: () => () => void }) {
  const noticeId = useId();
  const [details, setDetails] = useState<ContactDetails | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<FormMessage | null>(null);

  useEffect(() => {
    fetchContactDetails().then(setDetails, (error: unknown) => {
      console.error('Could not load the contact details', error);
      setLoadFailed(true);
    });
  }, []);

  // While the overlay is there, the details shown are the database's (the static ones may be older).
  const loaded = details !== null;
  useEffect(() => (loaded ? hideBuiltDetails() : undefined), [loaded, hideBuiltDetails]);

  return (
    <section className="content-admin contact-admin" aria-label="Manage the contact details">
      <ContentAdminHead noticeId={noticeId} notice={notice} loadFailure={loadFailed ? LOAD_FAILED : null}>
        {details && !editing && (
          <button type="button" className="button button--small" onClick={() => setEditing(true)}>
            Edit contact details
          </button>
        )}
      </ContentAdminHead>
      {details && editing && (
        <ContactDetailsForm
          details={details}
          onClose={() => setEditing(false)}
          onSaved={(saved, message) => {
            setDetails(saved);
            setEditing(false);
            setNotice({ text: message, tone: 'success' });
            requestAnimationFrame(() => document.getElementById(noticeId)?.focus());
          }}
        />
      )}
      {details && !editing && <DetailsPreview details={details} />}
    </section>
  );
}

/** Mounts the overlay where the contact details stand; returns how to take it away (logout, page swap). */
export function mountContactDetailsOverlay(staticDetails: HTMLElement): () => void {
  const container = document.createElement('div');
  container.className = 'content-admin-root';
  staticDetails.after(container);
  const root = createRoot(container);
  root.render(
    <StrictMode>
      <ContactDetailsOverlay
        hideBuiltDetails={() => {
          const wasHidden = staticDetails.hidden;
          staticDetails.hidden = true;
          return () => {
            staticDetails.hidden = wasHidden;
          };
        }}
      />
    </StrictMode>,
  );
  return () => {
    root.unmount();
    container.remove();
  };
}
