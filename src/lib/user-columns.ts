// The admin users table's columns (docs/product/admin.md#admin-screen): the column set comes from the first user's fields, all
// visible at first; the 'Table Display Filter' hides some, and the browser remembers the choice. Pure
// helpers (storage is passed in) so they are unit-tested without a DOM.

/** Labels of the known fields, in the words of the user card (docs/product/accounts.md#dashboard) where it names them. */
const LABELS: Readonly<Record<string, string>> = {
  id: 'ID',
  name: 'Name',
  surname: 'Surname',
  companyName: 'Company Name',
  email: 'Email',
  email_verified_at: 'Email Verified',
  two_factor_enabled_at: 'Two-Factor Since',
  address: 'Address',
  postcode: 'Post Code',
  county: 'County',
  country: 'Country',
  phone: 'Phone',
  vat: 'VAT No',
  license: 'License',
  license_request: 'License Requested',
  license_granted: 'License Granted',
  is_banned: 'Banned',
  role: 'Role',
  unsubscribed_at: 'Unsubscribed',
  created_at: 'Created',
  updated_at: 'Updated',
};

/** 0/1 fields shown as YES / NO (docs/product/accounts.md#dashboard). */
const FLAG_FIELDS: ReadonlySet<string> = new Set(['license_request', 'license_granted', 'is_banned']);

export type ColumnKind = 'flag' | 'date' | 'number' | 'text';

export interface Column {
  key: string;
  label: string;
  kind: ColumnKind;
}

/** "license_type_id" → "License type id": unknown fields still get a readable header. */
export function columnLabel(key: string): string {
  const known = LABELS[key];
  if (known) return known;
  const words = key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function kindOf(key: string, sample: unknown): ColumnKind {
  if (FLAG_FIELDS.has(key)) return 'flag';
  if (key.endsWith('_at') || key.endsWith('_date')) return 'date';
  return typeof sample === 'number' ? 'number' : 'text';
}

/** docs/product/admin.md#admin-screen: one column per field of the first user, in the order the server sends them. */
export function columnsFromUser(user: Record<string, unknown> | undefined): Column[] {
  if (!user) return [];
  return Object.keys(user)
    .filter((key) => {
      const value = user[key];
      // Nested objects (none today) have no sensible cell.
      return value === null || typeof value !== 'object';
    })
    .map((key) => ({ key, label: columnLabel(key), kind: kindOf(key, user[key]) }));
}

export const HIDDEN_COLUMNS_KEY = 'admin.users.hiddenColumns';

type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;

/**
 * The hidden columns remembered in the browser. Hidden (not visible) ones are stored so that a field the
 * server adds later shows up, as every column does at first; anything unreadable means none hidden.
 */
export function readHiddenColumns(storage: StorageLike | undefined): Set<string> {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(HIDDEN_COLUMNS_KEY) ?? '[]');
    return new Set(Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : []);
  } catch {
    return new Set();
  }
}

export function writeHiddenColumns(storage: StorageLike | undefined, hidden: ReadonlySet<string>): void {
  try {
    storage?.setItem(HIDDEN_COLUMNS_KEY, JSON.stringify([...hidden].sort()));
  } catch {
    // Private mode or a full quota: the choice holds for this visit only.
  }
}

export function visibleColumns(columns: readonly Column[], hidden: ReadonlySet<string>): Column[] {
  return columns.filter((column) => !hidden.has(column.key));
}
