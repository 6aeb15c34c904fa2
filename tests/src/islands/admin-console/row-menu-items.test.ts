// The users table's row actions menu (src/islands/admin-console/UserRow.tsx): on the admin's own row
// Delete User and Ban are disabled with the server's reason, instead of being refused after a confirmation.
import { describe, expect, it, vi } from 'vitest';
import type { AdminUser } from '../../../../src/lib/api/admin.ts';
import { rowMenuItems } from '../../../../src/islands/admin-console/UserRow.tsx';

const user = { id: 7, name: 'Ada', email: 'ada@example.com', is_banned: 0 } as unknown as AdminUser;

function actions() {
  return { onEdit: vi.fn(), onDelete: vi.fn(), onBan: vi.fn() };
}

describe('rowMenuItems', () => {
  it("offers Edit User, Delete User and Ban on another user's row, each calling its action", () => {
    const calls = actions();
    const items = rowMenuItems(user, false, calls);
    expect(items.map((item) => item.label)).toEqual(['Edit User', 'Delete User', 'Ban']);
    expect(items.every((item) => item.disabledReason === undefined)).toBe(true);
    for (const item of items) item.onSelect();
    expect(calls.onEdit).toHaveBeenCalledWith(user);
    expect(calls.onDelete).toHaveBeenCalledWith(user);
    expect(calls.onBan).toHaveBeenCalledWith(user);
  });

  it('says UnBan for a banned user', () => {
    expect(rowMenuItems({ ...user, is_banned: 1 } as AdminUser, false, actions())[2]?.label).toBe('UnBan');
  });

  it("disables Delete User and Ban on the admin's own row with the reasons the server gives, and keeps Edit User", () => {
    const [edit, remove, ban] = rowMenuItems(user, true, actions());
    expect(edit?.disabledReason).toBeUndefined();
    expect(remove?.disabledReason).toBe('You cannot delete your own account.');
    expect(ban?.disabledReason).toBe('You cannot ban yourself.');
  });
});
