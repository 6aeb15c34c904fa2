// Filtering and paging the admin users table in the browser. The whole list comes from GET
// /api/license/getAll (the call that also brings licenses and license types), so narrowing 10,000 rows to
// one page of 50 is what keeps the table fast: React renders one page, never the whole list. Measurements
// and the alternative (the server's keyset pages) are in docs/decisions/0017-admin-console-ui.md.

/** Rows whose value in one of `fields` contains `query`, ignoring case; an empty query keeps every row. */
export function filterUsers<T>(users: readonly T[], query: string, fields: readonly string[]): readonly T[] {
  const needle = query.trim().toLocaleLowerCase('en');
  if (!needle) return users;
  return users.filter((user) =>
    fields.some((field) => {
      const value = (user as Record<string, unknown>)[field];
      return value !== null && value !== undefined && String(value).toLocaleLowerCase('en').includes(needle);
    }),
  );
}

export interface Page<T> {
  rows: T[];
  /** 1-based, clamped into range. */
  page: number;
  pageCount: number;
  /** 1-based index of the first row shown (0 when there is none). */
  first: number;
  last: number;
  total: number;
}

/** One page of `rows`; a page past the end (rows deleted or filtered away) shows the last one. */
export function paginate<T>(rows: readonly T[], page: number, pageSize: number): Page<T> {
  const size = Math.max(1, Math.floor(pageSize));
  const pageCount = Math.max(1, Math.ceil(rows.length / size));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pageCount);
  const start = (current - 1) * size;
  const slice = rows.slice(start, start + size);
  return { rows: slice, page: current, pageCount, first: slice.length ? start + 1 : 0, last: start + slice.length, total: rows.length };
}
