// Page controls of the users table: first / previous / a page number field / next / last, and the page
// size. A number field rather than a row of page links: with 10,000 users there are 200 pages.
import { useId, useState } from 'react';
import type { Page } from '../../lib/user-table.ts';

export const PAGE_SIZES = [25, 50, 100, 200] as const;

function PageJump({ page, pageCount, onPage, id }: { page: number; pageCount: number; onPage: (page: number) => void; id: string }) {
  const [typed, setTyped] = useState(String(page));
  const go = () => {
    const wanted = Number.parseInt(typed, 10);
    const target = Number.isFinite(wanted) ? Math.min(Math.max(1, wanted), pageCount) : page;
    setTyped(String(target));
    if (target !== page) onPage(target);
  };
  return (
    <form
      className="admin-pagination__jump"
      onSubmit={(event) => {
        event.preventDefault();
        go();
      }}
    >
      <label htmlFor={id}>Page</label>
      <input
        id={id}
        className="field__control admin-pagination__input"
        inputMode="numeric"
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        onBlur={go}
      />
      <span>of {pageCount}</span>
    </form>
  );
}

interface PaginationProps {
  page: Page<unknown>;
  pageSize: number;
  onPage: (page: number) => void;
  /** Left out where the page size is the server's (the inbox): no size choice then. */
  onPageSize?: (size: number) => void;
  /** The navigation landmark's name, unique on the page. */
  label?: string;
}

export function Pagination({ page, pageSize, onPage, onPageSize, label = 'Users table pages' }: PaginationProps) {
  const id = useId();
  const atStart = page.page <= 1;
  const atEnd = page.page >= page.pageCount;

  return (
    <nav className="admin-pagination" aria-label={label}>
      <div className="admin-pagination__pages">
        <button type="button" className="button button--secondary button--small" onClick={() => onPage(1)} disabled={atStart}>
          <span aria-hidden="true">«</span> First
        </button>
        <button type="button" className="button button--secondary button--small" onClick={() => onPage(page.page - 1)} disabled={atStart}>
          <span aria-hidden="true">‹</span> Previous
        </button>
        {/* Keyed by the page: a new page starts the field afresh from its number. */}
        <PageJump key={page.page} page={page.page} pageCount={page.pageCount} onPage={onPage} id={`${id}-page`} />
        <button type="button" className="button button--secondary button--small" onClick={() => onPage(page.page + 1)} disabled={atEnd}>
          Next <span aria-hidden="true">›</span>
        </button>
        <button type="button" className="button button--secondary button--small" onClick={() => onPage(page.pageCount)} disabled={atEnd}>
          Last <span aria-hidden="true">»</span>
        </button>
      </div>
      {onPageSize && (
        <div className="admin-pagination__size">
          <label htmlFor={`${id}-size`}>Rows per page</label>
          <select
            id={`${id}-size`}
            className="field__control admin-pagination__select"
            value={pageSize}
            onChange={(event) => onPageSize(Number(event.target.value))}
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
      )}
    </nav>
  );
}
