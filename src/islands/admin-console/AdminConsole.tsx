// /admin (docs/product/admin.md#admin-screen; issue 7): the inbox (issue 14), the tool buttons (Send Mail, Table Display Filter, Create XML Map,
// Manage Banned Domains, Licensing Settings from issue 12 and Security Settings from issue 13), the users table with each user's card and licenses, the sitemap, the site's publish
// status, the mailings and the integrations (webhooks, API tokens). Loaded only for admins, as its own chunk, by src/scripts/admin-page.ts.
import { useStore } from '@nanostores/react';
import { StrictMode, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { columnsFromUser, readHiddenColumns, visibleColumns, writeHiddenColumns } from '../../lib/user-columns.ts';
import { $user } from '../../stores/session.ts';
import { BannedDomainsDialog } from './BannedDomainsDialog.tsx';
import { InboxPanel } from './InboxPanel.tsx';
import { IntegrationsPanel } from './IntegrationsPanel.tsx';
import { ColumnsDialog } from './ColumnsDialog.tsx';
import { LicensingSettingsDialog } from './LicensingSettingsDialog.tsx';
import { LicenseTypesDialog } from './LicenseTypesDialog.tsx';
import { SecuritySettingsDialog } from './SecuritySettingsDialog.tsx';
import { useConfirm } from '../ui/use-confirm.tsx';
import { MailingsPanel } from './MailingsPanel.tsx';
import { PublishPanel } from './PublishPanel.tsx';
import { SendMailingDialog } from './SendMailingDialog.tsx';
import { SitemapPanel } from './SitemapPanel.tsx';
import { UsersSection } from './UsersSection.tsx';
import { useAdminData } from './use-admin-data.ts';
import { useSitemap } from './use-sitemap.ts';

type OpenDialog = 'mail' | 'columns' | 'domains' | 'types' | 'licensing' | 'security' | null;

/** localStorage, or nothing where the browser refuses it (some privacy modes throw on access). */
function browserStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

export function AdminConsole() {
  const currentUser = useStore($user);
  const data = useAdminData();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [hidden, setHidden] = useState<Set<string>>(() => readHiddenColumns(browserStorage()));
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const { confirm, dialog: confirmDialog } = useConfirm();
  const sitemap = useSitemap();
  // docs/product/admin.md#admin-screen: the column set comes from the first user's fields.
  const columns = useMemo(() => columnsFromUser(data.users[0] as Record<string, unknown> | undefined), [data.users]);
  const visible = useMemo(() => visibleColumns(columns, hidden), [columns, hidden]);
  // Ticked users who were deleted meanwhile are not recipients.
  const selectedIds = useMemo(() => data.users.filter((user) => selected.has(user.id)).map((user) => user.id), [data.users, selected]);

  const changeHidden = (next: Set<string>) => {
    setHidden(next);
    writeHiddenColumns(browserStorage(), next);
  };

  return (
    <div className="admin-console">
      <div className="admin-toolbar">
        <button type="button" className="button" aria-haspopup="dialog" onClick={() => setDialog('mail')}>
          Send Mail
        </button>
        <button type="button" className="button" aria-haspopup="dialog" onClick={() => setDialog('columns')}>
          Table Display Filter
        </button>
        <button type="button" className="button" onClick={sitemap.start} aria-disabled={sitemap.run.phase === 'publishing' || undefined}>
          Create XML Map
        </button>
        <button type="button" className="button" aria-haspopup="dialog" onClick={() => setDialog('domains')}>
          Manage Banned Domains
        </button>
        <button type="button" className="button" aria-haspopup="dialog" onClick={() => setDialog('types')}>
          License Types
        </button>
        <button type="button" className="button" aria-haspopup="dialog" onClick={() => setDialog('licensing')}>
          Licensing Settings
        </button>
        <button type="button" className="button" aria-haspopup="dialog" onClick={() => setDialog('security')}>
          Security Settings
        </button>
      </div>

      <SitemapPanel run={sitemap.run} onClose={sitemap.close} />

      <InboxPanel
        onUserChanged={(user, license) => {
          data.putUser(user);
          if (license) data.putLicense(license);
        }}
      />

      <UsersSection
        data={data}
        columns={columns}
        visible={visible}
        selected={selected}
        onSelectedChange={setSelected}
        confirm={confirm}
        currentUserId={currentUser?.id}
      />

      <div className="admin-panels">
        <PublishPanel />
        <MailingsPanel />
      </div>

      <IntegrationsPanel confirm={confirm} />

      <SendMailingDialog open={dialog === 'mail'} selectedIds={selectedIds} onClose={() => setDialog(null)} />
      <ColumnsDialog open={dialog === 'columns'} columns={columns} hidden={hidden} onChange={changeHidden} onClose={() => setDialog(null)} />
      <BannedDomainsDialog open={dialog === 'domains'} onClose={() => setDialog(null)} confirm={confirm} />
      <LicenseTypesDialog
        open={dialog === 'types'}
        confirm={confirm}
        onClose={() => {
          setDialog(null);
          // The license form offers the types as they are now (issue 24, item 1).
          void data.reload();
        }}
      />
      <LicensingSettingsDialog open={dialog === 'licensing'} onClose={() => setDialog(null)} />
      <SecuritySettingsDialog open={dialog === 'security'} onClose={() => setDialog(null)} />
      {confirmDialog}
    </div>
  );
}

/** Mounts the console; returns the unmount, for when the admin's session ends while the page is open. */
export function mountAdminConsole(container: HTMLElement): () => void {
  const root = createRoot(container);
  root.render(
    <StrictMode>
      <AdminConsole />
    </StrictMode>,
  );
  return () => root.unmount();
}
