// The state of one media library (page images, home images or extra files) and what the admin can do
// with it; the library's own server calls and words come in as `source` and `texts`
// (media-library-actions.ts holds the rules, this hook holds the state).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FormMessage } from '../../ui/form-errors.ts';
import type { Confirm } from '../../ui/use-confirm.tsx';
import {
  applyWrite,
  FILE_NOT_SELECTED,
  keepExisting,
  NOTHING_SELECTED,
  reloadLibrary,
  runDelete,
  runWrite,
  withTicked,
  type MediaLibraryView,
  type MediaSource,
  type MediaTexts,
  type WriteOptions,
} from './media-library-actions.ts';
import type { RefusedDeletion } from './RefusedDeletions.tsx';

export interface MediaLibraryConfig<Item extends { id: number }> {
  source: MediaSource<Item>;
  texts: MediaTexts<Item>;
  confirm: Confirm;
  afterWrite: () => void | Promise<void>;
}

export interface MediaLibrary<Item extends { id: number }> {
  items: Item[];
  selected: ReadonlySet<number>;
  /** The ticked items, in the list's order. */
  selectedItems: Item[];
  toggle: (id: number, on: boolean) => void;
  notice: FormMessage | null;
  showNotice: (notice: FormMessage | null) => void;
  /** Shows 'Nothing selected!' (for actions on the ticked items when none is). */
  nothingSelected: () => void;
  refused: RefusedDeletion | null;
  /** Sends a chosen file; 'File not selected' without one. Resolves true when it was stored. */
  upload: (file: File | null, send: (file: File) => Promise<{ message?: string; id?: number }>, fallback: string, options?: WriteOptions) => Promise<boolean>;
  /** A write whose failure is the library's notice (a video link, a move). */
  write: (send: () => Promise<{ message?: string; id?: number }>, fallback: string, options?: WriteOptions) => Promise<boolean>;
  /** A write whose failure the caller shows itself (an item's details or replaced file). */
  writeItem: <Answer extends { message?: string }>(send: () => Promise<Answer>, fallback: string | null) => Promise<Answer>;
  remove: (ids: number[], force?: boolean) => Promise<void>;
  removeSelected: () => Promise<void>;
}

export function useMediaLibrary<Item extends { id: number }>({ source, texts, confirm, afterWrite }: MediaLibraryConfig<Item>): MediaLibrary<Item> {
  const [items, setItems] = useState<Item[]>([]);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [notice, setNotice] = useState<FormMessage | null>(null);
  const [refused, setRefused] = useState<RefusedDeletion | null>(null);
  // The actions read the newest list and callbacks without being rebuilt on every render.
  const latest = useRef({ items, source, texts, confirm, afterWrite });
  latest.current = { items, source, texts, confirm, afterWrite };

  const view = useMemo<MediaLibraryView<Item>>(
    () => ({
      items: () => latest.current.items,
      setItems: (list) => {
        setItems(list);
        setSelected((previous) => keepExisting(previous, list));
      },
      setNotice,
      setRefused,
      tick: (ids) => setSelected((previous) => new Set([...previous, ...ids])),
      untick: (ids) => setSelected((previous) => new Set([...previous].filter((id) => !ids.includes(id)))),
      confirm: (question) => latest.current.confirm(question),
      afterWrite: () => latest.current.afterWrite(),
    }),
    [],
  );

  const reload = useCallback(() => reloadLibrary(latest.current.source, latest.current.texts, view), [view]);

  useEffect(() => {
    // Each opening of a manager mounts it afresh, so this reads the library once per opening.
    void reload();
  }, [reload]);

  const run = <Result>(action: (config: typeof latest.current) => Promise<Result>) => action(latest.current);

  return {
    items,
    selected,
    selectedItems: items.filter((item) => selected.has(item.id)),
    toggle: (id, on) => setSelected((previous) => withTicked(previous, id, on)),
    notice,
    showNotice: setNotice,
    nothingSelected: () => setNotice({ text: NOTHING_SELECTED, tone: 'error' }),
    refused,
    upload: async (file, send, fallback, options) => {
      if (!file) {
        setNotice({ text: FILE_NOT_SELECTED, tone: 'error' });
        return false;
      }
      return run(({ source, texts }) => runWrite(source, texts, view, () => send(file), fallback, options));
    },
    write: (send, fallback, options) => run(({ source, texts }) => runWrite(source, texts, view, send, fallback, options)),
    writeItem: (send, fallback) => run(({ source, texts }) => applyWrite(source, texts, view, send, fallback)),
    remove: (ids, force = false) => run(({ source, texts }) => runDelete(source, texts, view, ids, force)),
    removeSelected: () =>
      run(({ source, texts }) =>
        runDelete(
          source,
          texts,
          view,
          items.filter((item) => selected.has(item.id)).map((item) => item.id),
        ),
      ),
  };
}
