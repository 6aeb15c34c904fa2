import { describe, expect, it, vi } from 'vitest';
import { ariaSortOf, compareValues, nextSort, sortUsers } from '../../../src/lib/sort-users.ts';

const users = [
  { id: 1, name: 'bob', company: 'Acme', is_banned: 0, created_at: '2026-03-01T10:00:00.000Z' },
  { id: 2, name: 'Alice', company: null, is_banned: 1, created_at: '2026-01-01T10:00:00.000Z' },
  { id: 3, name: 'carol', company: 'acme', is_banned: 0, created_at: '2026-02-01T10:00:00.000Z' },
  { id: 4, name: 'Dave', company: '', is_banned: 10, created_at: '2025-12-31T23:59:59.000Z' },
];
const ids = (rows: { id: number }[]) => rows.map((row) => row.id);

describe('sorting the users table (docs/product/admin.md#admin-screen)', () => {
  it('compares text case-insensitively, where a plain sort would put capitals first', () => {
    expect(ids(sortUsers(users, { field: 'name', direction: 1 }))).toEqual([2, 1, 3, 4]);
    expect(ids(sortUsers(users, { field: 'name', direction: -1 }))).toEqual([4, 3, 1, 2]);
  });

  it('compares numbers numerically (10 after 1), not as text', () => {
    expect(ids(sortUsers(users, { field: 'is_banned', direction: 1 }))).toEqual([1, 3, 2, 4]);
    expect(ids(sortUsers(users, { field: 'is_banned', direction: -1 }))).toEqual([4, 2, 3, 1]);
  });

  it('puts empty values first and breaks ties by id, in the chosen direction, like the server', () => {
    // null and '' are both empty; 'Acme' and 'acme' tie: ids decide.
    expect(ids(sortUsers(users, { field: 'company', direction: 1 }))).toEqual([2, 4, 1, 3]);
    expect(ids(sortUsers(users, { field: 'company', direction: -1 }))).toEqual([3, 1, 4, 2]);
  });

  it('orders ISO dates chronologically', () => {
    expect(ids(sortUsers(users, { field: 'created_at', direction: 1 }))).toEqual([4, 2, 3, 1]);
  });

  it('keeps the given order without a sort and never reorders its input', () => {
    const input = [...users];
    expect(ids(sortUsers(input, null))).toEqual([1, 2, 3, 4]);
    sortUsers(input, { field: 'name', direction: -1 });
    expect(ids(input)).toEqual([1, 2, 3, 4]);
  });

  it('treats accents as different letters but case as the same', () => {
    expect(compareValues('ÉCOLE', 'école')).toBe(0);
    expect(compareValues('ecole', 'école')).not.toBe(0);
    expect(compareValues('User10', 'user2')).toBeLessThan(0);
    expect(compareValues(null, 'a')).toBeLessThan(0);
    expect(compareValues(undefined, '')).toBe(0);
    expect(compareValues(2, 10)).toBeLessThan(0);
  });

  it('toggles the direction 1 / -1 on the same header and starts a new header ascending', () => {
    const first = nextSort(null, 'name');
    expect(first).toEqual({ field: 'name', direction: 1 });
    const second = nextSort(first, 'name');
    expect(second).toEqual({ field: 'name', direction: -1 });
    expect(nextSort(second, 'name')).toEqual({ field: 'name', direction: 1 });
    expect(nextSort(second, 'email')).toEqual({ field: 'email', direction: 1 });
  });

  it('says which header is sorted, for aria-sort', () => {
    expect(ariaSortOf(null, 'name')).toBe('none');
    expect(ariaSortOf({ field: 'name', direction: 1 }, 'name')).toBe('ascending');
    expect(ariaSortOf({ field: 'name', direction: -1 }, 'name')).toBe('descending');
    expect(ariaSortOf({ field: 'name', direction: -1 }, 'email')).toBe('none');
  });

  it('sorts 10,000 users wholly in order with its one collator, none made or asked per comparison', () => {
    const many = Array.from({ length: 10_000 }, (_, index) => ({
      id: index + 1,
      name: `User ${(index * 7919) % 10_000}`,
      phone: index % 5 ? `+44 ${index}` : null,
    }));
    // What makes a comparator slow on a click is a collator built per call (new Intl.Collator, or
    // localeCompare, which builds one each time); counted, not timed, so it holds on any machine.
    const collators = vi.spyOn(Intl, 'Collator');
    const localeCompare = vi.spyOn(String.prototype, 'localeCompare');
    try {
      const sorted = sortUsers(many, { field: 'name', direction: -1 });
      expect(sorted).toHaveLength(10_000);
      const outOfOrder = sorted.findIndex((user, index) => index > 0 && compareValues(sorted[index - 1]!.name, user.name) < 0);
      expect(outOfOrder).toBe(-1);
      expect(collators).not.toHaveBeenCalled();
      expect(localeCompare).not.toHaveBeenCalled();
    } finally {
      collators.mockRestore();
      localeCompare.mockRestore();
    }
  });
});
