// The admin users table for large user bases (issue 7: 10,000 users stay fast): a text filter and keyset
// pagination in any sort order. Keyset, not OFFSET: the measurements of docs/engineering.md#speed-notes put OFFSET pages 4x slower and they
// skip or repeat rows when users are added or deleted between pages.
import { containsText } from '../../db/contains-text.ts';
import { and, asc, desc, or, sql, type SQL } from 'drizzle-orm';
import { PUBLIC_USER_FIELDS } from '../../auth/public-user.ts';
import type { Db } from '../../db/client.ts';
import { users, type User } from '../../db/schema.ts';

/** Columns the table can sort by: every field the admin sees. */
export const USER_SORT_FIELDS = [...PUBLIC_USER_FIELDS, 'unsubscribed_at'] as const satisfies readonly (keyof User)[];

export type UserSortField = (typeof USER_SORT_FIELDS)[number];
export type SortValue = string | number;

const NUMERIC_FIELDS: ReadonlySet<UserSortField> = new Set(['id', 'license_request', 'license_granted', 'is_banned']);

/**
 * Numbers compare numerically; text case-insensitively (docs/product/admin.md#admin-screen), with empty values first, as '' —
 * a NULL would break the row-value comparison the keyset relies on.
 */
function sortExpression(field: UserSortField): SQL {
  const column = users[field];
  return NUMERIC_FIELDS.has(field) ? sql`${column}` : sql`coalesce(${column}, '') collate nocase`;
}

function searchFilter(search: string | undefined): SQL | undefined {
  if (!search) return undefined;
  // LIKE ignores ASCII case, like the rest of the table's text handling.
  return or(...[users.name, users.surname, users.companyName, users.email].map((column) => containsText(column, search)));
}

export interface UserPageQuery {
  search?: string;
  sort: UserSortField;
  dir: 'asc' | 'desc';
  /** The sort value and id of the last row of the previous page. */
  after?: { value: SortValue; id: number };
  limit: number;
}

export interface UserPage {
  users: User[];
  /** Users matching the filter, across all pages. */
  total: number;
  /** Where the next page starts; null on the last page. */
  next: { value: SortValue; id: number } | null;
}

export function listUsersPage(db: Db, query: UserPageQuery): UserPage {
  const expression = sortExpression(query.sort);
  const filter = searchFilter(query.search);
  // Ties are broken by id, so every row has one place in the order and no page repeats or skips one.
  const keyset = query.after
    ? query.dir === 'asc'
      ? sql`(${expression}, ${users.id}) > (${query.after.value}, ${query.after.id})`
      : sql`(${expression}, ${users.id}) < (${query.after.value}, ${query.after.id})`
    : undefined;
  const rows = db
    .select({ user: users, sortValue: sql<SortValue>`${expression}` })
    .from(users)
    .where(and(filter, keyset))
    .orderBy(query.dir === 'asc' ? sql`${expression} asc` : sql`${expression} desc`, query.dir === 'asc' ? asc(users.id) : desc(users.id))
    .limit(query.limit + 1)
    .all();
  const total =
    db
      .select({ count: sql<number>`count(*)` })
      .from(users)
      .where(filter)
      .get()?.count ?? 0;
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    users: page.map((row) => row.user),
    total,
    next: rows.length > query.limit && last ? { value: last.sortValue, id: last.user.id } : null,
  };
}
