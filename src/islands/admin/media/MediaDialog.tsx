// The dialog a media library opens in, and what every manager is given by the form or overlay that
// opens it.
import type { ComponentType } from 'react';
import { Dialog } from '../../ui/Dialog.tsx';
import type { Confirm } from '../../ui/use-confirm.tsx';

export interface MediaManagerProps {
  open: boolean;
  onClose: () => void;
  confirm: Confirm;
  /** Every successful write: follows the publish it schedules. */
  onWrite: () => void;
}

/** A manager: `Library` in a wide dialog titled `title`. */
export function inMediaDialog<Props extends MediaManagerProps>(title: string, Library: ComponentType<Props>): ComponentType<Props> {
  function MediaManager(props: Props) {
    // The dialog renders its content only while open, so each opening mounts the library afresh: a
    // fresh list, notice and ticks (and for home images, the section it was opened for).
    return (
      <Dialog title={title} open={props.open} onClose={props.onClose} size="wide">
        <Library {...props} />
      </Dialog>
    );
  }
  MediaManager.displayName = `MediaManager(${title})`;
  return MediaManager;
}
