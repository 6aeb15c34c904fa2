// The full-screen loading modal of docs/product/routes.md#navigation-bar, docs/product/states.md, driven by the $loading store: a spinner while
// requests run and, for uploads and downloads, the file name, its size and a 0–100 progress bar.
// A native modal <dialog> so it sits above any other open dialog (both live in the top layer, the
// newest on top). Plain requests show it only after a short delay: most answer in a few milliseconds,
// and a spinner flashing (and a screen reader announcing it) on every click helps nobody.
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { formatBytes } from '../lib/format.ts';
import { $loading } from '../stores/loading.ts';

const SHOW_AFTER_MS = 400;

export function LoadingModal() {
  const loading = useStore($loading);
  const ref = useRef<HTMLDialogElement>(null);
  const [visible, setVisible] = useState(false);

  // Follows the store directly (not through renders) so the delay starts once per loading episode.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unbind = $loading.subscribe((state) => {
      if (!state.show) {
        clearTimeout(timer);
        timer = undefined;
        setVisible(false);
      } else if (state.showDetails) {
        setVisible(true);
      } else {
        timer ??= setTimeout(() => setVisible(true), SHOW_AFTER_MS);
      }
    });
    return () => {
      unbind();
      clearTimeout(timer);
    };
  }, []);

  const shown = visible && loading.show;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (shown && !dialog.open) dialog.showModal();
    else if (!shown && dialog.open) dialog.close();
  }, [shown]);

  return (
    <dialog ref={ref} className="loading-modal" aria-label="Loading" onCancel={(event) => event.preventDefault()} tabIndex={-1}>
      {shown && (
        <div className="loading-modal__content" role="status">
          <span className="spinner" aria-hidden="true"></span>
          <p className="loading-modal__label">{loading.showDetails ? 'Transferring…' : 'Loading…'}</p>
          {loading.showDetails && (
            <div className="loading-modal__details">
              <p className="loading-modal__file">
                <span className="loading-modal__name">{loading.filename}</span>
                {loading.filesize > 0 && <span className="loading-modal__size"> ({formatBytes(loading.filesize)})</span>}
              </p>
              <div className="progress" role="progressbar" aria-label="Progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={loading.progress}>
                <div className="progress__bar" style={{ width: `${loading.progress}%` }}></div>
              </div>
              <p className="loading-modal__percent" aria-hidden="true">
                {loading.progress}%
              </p>
            </div>
          )}
        </div>
      )}
    </dialog>
  );
}
