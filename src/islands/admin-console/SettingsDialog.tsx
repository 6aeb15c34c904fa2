// The one body of the admin's settings dialogs (Licensing Settings, Security Settings): the settings are
// read when the dialog opens, 'Loading the … settings…' meanwhile, and a failed read says so with a
// retry; once read, the dialog's own form gets them. Each form saves with the one form hook.
import type { ReactNode } from 'react';
import { Dialog } from '../ui/Dialog.tsx';
import { useLoaded } from '../ui/use-loaded.ts';
import { LoadFailed } from '../ui/LoadFailed.tsx';

interface SettingsDialogProps<T> {
  title: string;
  /** How the text names the settings: 'the licensing settings'. */
  what: string;
  /** Reads the settings: a module function, so it stays the same between renders (useLoaded). */
  load: () => Promise<T>;
  open: boolean;
  onClose: () => void;
  /** The form, given the settings as read. */
  children: (settings: T) => ReactNode;
}

function SettingsBody<T>({ what, load, children }: Pick<SettingsDialogProps<T>, 'what' | 'load' | 'children'>) {
  const { value, failed, reload } = useLoaded(load, what);
  if (failed) return <LoadFailed what={what} onRetry={() => void reload()} />;
  if (value === null) return <p className="empty-note">Loading {what}…</p>;
  return children(value);
}

export function SettingsDialog<T>({ title, open, onClose, ...body }: SettingsDialogProps<T>) {
  return (
    <Dialog title={title} open={open} onClose={onClose}>
      {open && <SettingsBody {...body} />}
    </Dialog>
  );
}
