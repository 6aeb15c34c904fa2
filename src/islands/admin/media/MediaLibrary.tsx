// The frame every media library shares: the notice, the refused-deletion report, the forms that add
// items, the actions on the ticked items (always with "Delete selected") and the list. What differs
// (the list's cards or table, extra forms and actions) comes from the manager that configures it.
import { useId, type ReactNode } from 'react';
import { Message } from '../../ui/Message.tsx';
import type { MediaLibrary as Library } from './use-media-library.ts';
import { RefusedDeletions } from './RefusedDeletions.tsx';

interface MediaLibraryProps<Item extends { id: number }> {
  library: Library<Item>;
  /** BEM block of the layout: image grids and the files table are styled apart. */
  block: 'image-manager' | 'files-manager';
  /** The upload form, and any other way to add an item (a video link). */
  adders: ReactNode;
  /** Actions before "Delete selected" (insert into text, a filter). */
  actions?: ReactNode;
  /** After "Delete selected": a live count of the ticked items. */
  showCount?: boolean;
  /** The files table puts its actions under the list, the image grids above it. */
  actionsBelow?: boolean;
  children: ReactNode;
}

export function MediaLibrary<Item extends { id: number }>({
  library,
  block,
  adders,
  actions,
  showCount = false,
  actionsBelow = false,
  children,
}: MediaLibraryProps<Item>) {
  const id = useId();
  const actionRow = (
    <div className={`${block}__actions`}>
      {actions}
      <button type="button" className="button button--danger" onClick={() => void library.removeSelected()}>
        Delete selected
      </button>
      {showCount && (
        <span className="image-manager__count" aria-live="polite">
          {library.selected.size} selected
        </span>
      )}
    </div>
  );
  return (
    <div className={block}>
      <Message message={library.notice} id={`${id}-notice`} />
      <RefusedDeletions refused={library.refused} onDeleteAnyway={(ids) => void library.remove(ids, true)} />
      {adders}
      {!actionsBelow && actionRow}
      {children}
      {actionsBelow && actionRow}
    </div>
  );
}
