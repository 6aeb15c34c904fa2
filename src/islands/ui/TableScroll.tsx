// The one wrapper of a table wider than a phone: the table scrolls sideways inside it rather than the page
// (docs/decisions/0017-admin-console-ui.md, "Narrow windows"). The region takes focus, so a keyboard can
// scroll it, and carries a name, so a screen reader says what it holds. Inside a part that is itself a
// landmark of a name ("API tokens"), the region is that name's table ("API tokens table"): two landmarks of
// one name cannot be told apart in a screen reader's list of them. The static pages write the same markup by
// hand (src/components/PreviousReleases.astro); every island table goes through this.
import type { ReactNode } from 'react';

type RegionName = { label: string; labelledBy?: never } | { labelledBy: string; label?: never };

export function TableScroll({ children, ...name }: RegionName & { children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" tabIndex={0} aria-label={name.label} aria-labelledby={name.labelledBy}>
      {children}
    </div>
  );
}

/** The header of a last column that holds only buttons: named for screen readers, blank on screen. */
export function ActionsHeader() {
  return (
    <th scope="col" className="admin-table__action">
      <span className="sr-only">Actions</span>
    </th>
  );
}
