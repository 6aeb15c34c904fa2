// What the users table shows of the list loaded once: the filter (over the visible columns only), the
// sort, the page, and the caption and summary that say so to screen-reader users.
import { useDeferredValue, useMemo, useState } from 'react';
import { nextSort, sortUsers, type SortState } from '../../lib/sort-users.ts';
import type { Column } from '../../lib/user-columns.ts';
import { filterUsers, paginate, type Page as UserPage } from '../../lib/user-table.ts';
import type { AdminUser } from '../../lib/api/admin.ts';

type Page = UserPage<AdminUser>;

const count = (value: number) => value.toLocaleString('en-GB');

function caption(sortedColumn: Column | null | undefined, sort: SortState | null, shown: Page): string {
  const sorted = sortedColumn ? `, sorted by ${sortedColumn.label} ${sort?.direction === 1 ? 'ascending' : 'descending'}` : '';
  const paged = shown.pageCount > 1 ? `, page ${count(shown.page)} of ${count(shown.pageCount)}` : '';
  return `Users table${sorted}${paged}`;
}

function summary(shown: Page, all: number): string {
  if (shown.total === 0) return 'No users to show.';
  const filtered = shown.total !== all ? ` (filtered from ${count(all)})` : '';
  return `Showing ${count(shown.first)}–${count(shown.last)} of ${count(shown.total)} ${shown.total === 1 ? 'user' : 'users'}${filtered}.`;
}

export function useUsersView(users: AdminUser[], columns: readonly Column[], visible: readonly Column[]) {
  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query);
  const [sort, setSort] = useState<SortState | null>(null);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(50);

  // Only what is shown can be searched: a hidden column does not match.
  const searchable = useMemo(() => visible.map((column) => column.key), [visible]);
  const filtered = useMemo(() => filterUsers(users, deferredQuery, searchable), [users, deferredQuery, searchable]);
  const sorted = useMemo(() => sortUsers(filtered, sort), [filtered, sort]);
  const shown = paginate(sorted, page, pageSize);
  const sortedColumn = sort && columns.find((column) => column.key === sort.field);

  return {
    query,
    filter: (value: string) => {
      setQuery(value);
      setPage(1);
    },
    sort,
    sortBy: (field: string) => {
      setSort((current) => nextSort(current, field));
      setPage(1);
    },
    shown,
    pageSize,
    setPage,
    resize: (size: number) => {
      // Keep the first row shown in view.
      setPage(Math.floor((shown.first - 1) / size) + 1);
      setPageSize(size);
    },
    caption: caption(sortedColumn, sort, shown),
    summary: summary(shown, users.length),
  };
}
