import { describe, expect, it } from 'vitest';
import { columnLabel, columnsFromUser, HIDDEN_COLUMNS_KEY, readHiddenColumns, visibleColumns, writeHiddenColumns } from '../../../src/lib/user-columns.ts';
import { filterUsers, paginate } from '../../../src/lib/user-table.ts';

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value), items };
}

const firstUser = {
  id: 1,
  name: 'Ann',
  companyName: null,
  email: 'ann@example.com',
  email_verified_at: null,
  license_request: 0,
  is_banned: 0,
  role: 'admin',
  created_at: '2026-01-01T00:00:00.000Z',
  extra: { nested: true },
};

describe('the users table columns (docs/product/admin.md#admin-screen)', () => {
  it("come from the first user's fields, in order, each with a label and a kind", () => {
    const columns = columnsFromUser(firstUser);
    expect(columns.map((column) => column.key)).toEqual([
      'id',
      'name',
      'companyName',
      'email',
      'email_verified_at',
      'license_request',
      'is_banned',
      'role',
      'created_at',
    ]);
    expect(columns.find((column) => column.key === 'companyName')).toEqual({ key: 'companyName', label: 'Company Name', kind: 'text' });
    expect(columns.find((column) => column.key === 'is_banned')?.kind).toBe('flag');
    expect(columns.find((column) => column.key === 'created_at')?.kind).toBe('date');
    expect(columns.find((column) => column.key === 'id')?.kind).toBe('number');
    expect(columnsFromUser(undefined)).toEqual([]);
  });

  it('label unknown fields readably', () => {
    expect(columnLabel('vat')).toBe('VAT No');
    expect(columnLabel('license_type_id')).toBe('License type id');
    expect(columnLabel('lastLoginAt')).toBe('Last login at');
  });

  it('are all visible at first, and the hidden ones are remembered', () => {
    const storage = memoryStorage();
    const columns = columnsFromUser(firstUser);
    expect(visibleColumns(columns, readHiddenColumns(storage))).toHaveLength(columns.length);

    writeHiddenColumns(storage, new Set(['email', 'companyName']));
    expect(storage.items.get(HIDDEN_COLUMNS_KEY)).toBe('["companyName","email"]');
    const hidden = readHiddenColumns(storage);
    expect(visibleColumns(columns, hidden).map((column) => column.key)).not.toContain('email');
    expect(visibleColumns(columns, hidden)).toHaveLength(columns.length - 2);
  });

  it('show every column when the stored choice is unreadable or storage is missing', () => {
    expect(readHiddenColumns(memoryStorage({ [HIDDEN_COLUMNS_KEY]: '{not json' })).size).toBe(0);
    expect(readHiddenColumns(memoryStorage({ [HIDDEN_COLUMNS_KEY]: '{"email":true}' })).size).toBe(0);
    expect([...readHiddenColumns(memoryStorage({ [HIDDEN_COLUMNS_KEY]: '["email",3]' }))]).toEqual(['email']);
    expect(readHiddenColumns(undefined).size).toBe(0);
    const throwing = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(() => writeHiddenColumns(throwing, new Set(['email']))).not.toThrow();
  });
});

describe('filtering and paging the users table', () => {
  const users = [
    { id: 1, name: 'Ann', email: 'ann@example.com', phone: null },
    { id: 2, name: 'Bob', email: 'bob@SPAM.example', phone: '+44 100' },
    { id: 12, name: 'Cy', email: 'cy@example.com', phone: '+44 200' },
  ];

  it('keeps rows with the text in one of the given fields, ignoring case', () => {
    expect(filterUsers(users, 'spam', ['name', 'email']).map((user) => user.id)).toEqual([2]);
    expect(filterUsers(users, '  ANN ', ['name']).map((user) => user.id)).toEqual([1]);
    expect(filterUsers(users, '2', ['id']).map((user) => user.id)).toEqual([2, 12]);
    expect(filterUsers(users, '200', ['id', 'phone']).map((user) => user.id)).toEqual([12]);
    // A hidden column is not searched.
    expect(filterUsers(users, '+44', ['name', 'email'])).toEqual([]);
    expect(filterUsers(users, '', ['name'])).toBe(users);
  });

  it('pages rows and clamps a page past the end to the last one', () => {
    const rows = Array.from({ length: 120 }, (_, index) => index + 1);
    expect(paginate(rows, 1, 50)).toMatchObject({ page: 1, pageCount: 3, first: 1, last: 50, total: 120 });
    expect(paginate(rows, 3, 50).rows).toEqual(rows.slice(100));
    expect(paginate(rows, 9, 50)).toMatchObject({ page: 3, first: 101, last: 120 });
    expect(paginate(rows, 0, 50).page).toBe(1);
    expect(paginate([], 4, 50)).toMatchObject({ rows: [], page: 1, pageCount: 1, first: 0, last: 0, total: 0 });
  });
});
