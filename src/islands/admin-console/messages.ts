// The admin screen's fixed texts from docs/product/messages.md#error-catalogue, word for word (the spelling of 'UnBan' included), in one
// place so the components and the browser tests agree on them.

export { HARD_DELETE_WARNING } from '../ui/confirm-question.ts';

export function banQuestion(name: string, banning: boolean): string {
  return `Are you sure you want to ${banning ? 'BAN' : 'UNBAN'} ${name}?`;
}

/**
 * Why Delete User and Ban are disabled on the admin's own row: the server's refusals
 * (server/features/users/admin-protection.ts, docs/product/admin.md#admin-screen), said before the click.
 */
export const SELF_DELETE_REFUSED = 'You cannot delete your own account.';
export const SELF_BAN_REFUSED = 'You cannot ban yourself.';
