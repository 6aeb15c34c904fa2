// Sorting the admin users table (docs/product/admin.md#admin-screen): clicking a header sorts by that field and toggles the
// direction between 1 and -1; text compares case-insensitively, numbers numerically. The rules match the
// server's keyset listing (server/features/users/queries.ts) so the table orders rows the same way whether it
// sorts in the browser or the server does: empty values first, ties broken by id in the same direction.
// Pure and DOM-free, so it is unit-tested on its own (tests/src/lib/sort-users.test.ts).

export type SortDirection = 1 | -1;

export interface SortState {
  field: string;
  direction: SortDirection;
}

/**
 * The sort after a click on `field`'s header: the same field flips the direction, another field starts
 * ascending (what a reader expects of a newly chosen column; the spec only says the direction toggles).
 */
export function nextSort(current: SortState | null, field: string): SortState {
  if (current?.field === field) return { field, direction: current.direction === 1 ? -1 : 1 };
  return { field, direction: 1 };
}

// Case-insensitive but accent-aware ('a' = 'A', 'a' ≠ 'á'); numeric: false keeps "User10" after "User1"
// exactly as plain text would be, which is what the server's COLLATE NOCASE does.
const collator = new Intl.Collator('en', { sensitivity: 'accent', numeric: false });

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}

/** Ascending comparison of two cell values: empty first, numbers numerically, everything else as text. */
export function compareValues(a: unknown, b: unknown): number {
  const aEmpty = isEmpty(a);
  const bEmpty = isEmpty(b);
  if (aEmpty || bEmpty) return aEmpty === bEmpty ? 0 : aEmpty ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a === b ? 0 : a < b ? -1 : 1;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  // Mixed types (a number column with a stray string) still order consistently as text.
  return collator.compare(String(a), String(b));
}

interface Identified {
  id: number;
}

/** A comparator for Array.prototype.sort: by `field` in `direction`, ties by id in the same direction. */
export function compareUsers<T extends Identified>(sort: SortState): (a: T, b: T) => number {
  return (a, b) => {
    const byField = compareValues((a as Record<string, unknown>)[sort.field], (b as Record<string, unknown>)[sort.field]);
    const result = byField !== 0 ? byField : a.id - b.id;
    return result * sort.direction;
  };
}

/** A sorted copy (the input is state and stays untouched); no sort chosen keeps the given order. */
export function sortUsers<T extends Identified>(users: readonly T[], sort: SortState | null): T[] {
  const copy = [...users];
  return sort ? copy.sort(compareUsers<T>(sort)) : copy;
}

/** What aria-sort says on a header button's <th>: only the sorted column carries a direction. */
export function ariaSortOf(sort: SortState | null, field: string): 'ascending' | 'descending' | 'none' {
  if (sort?.field !== field) return 'none';
  return sort.direction === 1 ? 'ascending' : 'descending';
}
