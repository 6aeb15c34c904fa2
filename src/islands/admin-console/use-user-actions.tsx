// The users table's row actions (docs/product/admin.md#admin-screen): Edit User opens the form; Delete User and Ban/UnBan ask
// first with the words of docs/product/messages.md#error-catalogue, then call the API and report the server's answer, refusals included
// ('You cannot ban yourself.', 'The last admin cannot be deleted.').
import { useCallback, useState } from 'react';
import { serverMessage, type FormMessage } from '../ui/form-errors.ts';
import { deleteUser, setBanned, type AdminUser } from '../../lib/api/admin.ts';
import type { Confirm } from '../ui/use-confirm.tsx';
import { banQuestion, HARD_DELETE_WARNING } from './messages.ts';
import type { RowActions } from './UserRow.tsx';

interface Options {
  confirm: Confirm;
  putUser: (user: AdminUser) => void;
  removeUser: (id: number) => void;
  /** Where the outcome is reported; `moveFocus` when the control that had focus is gone. */
  report: (message: FormMessage, moveFocus?: boolean) => void;
}

function failure(error: unknown): FormMessage {
  return { text: serverMessage(error), tone: 'error' };
}

export function useUserActions({ confirm, putUser, removeUser, report }: Options): RowActions & { editing: AdminUser | null; stopEditing: () => void } {
  const [editing, setEditing] = useState<AdminUser | null>(null);

  const onDelete = useCallback(
    async (user: AdminUser) => {
      const ok = await confirm({
        title: 'Delete User',
        message: HARD_DELETE_WARNING,
        detail: (
          <p>
            {user.name} ({user.email}), with their licenses and sessions. Their posts stay, without an author.
          </p>
        ),
        confirmLabel: 'Delete User',
        danger: true,
      });
      if (!ok) return;
      try {
        const answer = await deleteUser(user.id);
        removeUser(user.id);
        report({ text: `${answer.message} (${user.name}, ${user.email})`, tone: 'success' }, true);
      } catch (error) {
        report(failure(error));
      }
    },
    [confirm, removeUser, report],
  );

  const onBan = useCallback(
    async (user: AdminUser) => {
      const banning = !user.is_banned;
      const ok = await confirm({
        title: banning ? 'Ban User' : 'UnBan User',
        message: banQuestion(user.name, banning),
        detail: banning ? <p>They are logged out everywhere at once and cannot log in until unbanned.</p> : undefined,
        confirmLabel: banning ? 'Ban' : 'UnBan',
        danger: banning,
      });
      if (!ok) return;
      try {
        const answer = await setBanned(user.id, banning);
        putUser(answer.user);
        report({ text: `${answer.message} (${user.name})`, tone: 'success' });
      } catch (error) {
        report(failure(error));
      }
    },
    [confirm, putUser, report],
  );

  return {
    editing,
    stopEditing: useCallback(() => setEditing(null), []),
    onEdit: useCallback((user: AdminUser) => setEditing(user), []),
    onDelete: (user) => void onDelete(user),
    onBan: (user) => void onBan(user),
  };
}
