// What every media library does (src/islands/admin/media/media-library-actions.ts, used by
// useMediaLibrary for page images, home images and files): deletes ask first and act only on ticked
// items, refusals show their report with "Delete anyway" only where the server allows it, writes show
// the server's message and read the list again, and ticks follow the list.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../../../src/lib/api/request.ts';
import {
  keepExisting,
  NOTHING_SELECTED,
  reloadLibrary,
  runDelete,
  runWrite,
  withTicked,
  type MediaLibraryView,
  type MediaSource,
  type MediaTexts,
} from '../../../../../src/islands/admin/media/media-library-actions.ts';
import type { RefusedDeletion } from '../../../../../src/islands/admin/media/RefusedDeletions.tsx';
import type { FormMessage } from '../../../../../src/islands/ui/form-errors.ts';
import { HARD_DELETE_WARNING } from '../../../../../src/islands/ui/use-confirm.tsx';

interface Item {
  id: number;
  title: string;
}

const TEXTS: MediaTexts<Item> = {
  deleted: 'Deleted.',
  deleteTitle: 'Delete items',
  deleteQuestion: (items) => `Delete ${items.map((item) => item.title).join(', ')}?`,
  loadFailed: 'Could not load the items',
};

/** A library over `items` whose every change is recorded; `confirmAnswer` is the admin's Ok or Cancel. */
function fakeLibrary(items: Item[], options: { confirmAnswer?: boolean; forceable?: boolean; remove?: MediaSource<Item>['remove'] } = {}) {
  const state = { items: [...items], notice: null as FormMessage | null, refused: null as RefusedDeletion | null, ticked: new Set<number>() };
  const calls = { remove: [] as [number[], boolean][], confirm: [] as string[], afterWrite: 0, list: 0 };
  const source: MediaSource<Item> = {
    list: () => {
      calls.list += 1;
      return Promise.resolve(state.items);
    },
    remove: (ids, force) => {
      calls.remove.push([ids, force]);
      return options.remove ? options.remove(ids, force) : Promise.resolve({ message: `${ids.length} removed.` });
    },
    forceable: options.forceable ?? true,
  };
  const view: MediaLibraryView<Item> = {
    items: () => state.items,
    setItems: (list) => void (state.items = list),
    setNotice: (notice) => void (state.notice = notice),
    setRefused: (refused) => void (state.refused = refused),
    tick: (ids) => ids.forEach((id) => state.ticked.add(id)),
    untick: (ids) => ids.forEach((id) => state.ticked.delete(id)),
    confirm: ({ message }) => {
      calls.confirm.push(message);
      return Promise.resolve(options.confirmAnswer ?? true);
    },
    afterWrite: () => void (calls.afterWrite += 1),
  };
  return { state, calls, source, view };
}

const ITEMS = [
  { id: 1, title: 'gauge' },
  { id: 2, title: 'probe' },
];

const inUse = () => new ApiError(409, { message: 'Still used.', report: [{ id: 2, message: '"probe" is used in the post "CMM".' }] } as never);

afterEach(() => vi.restoreAllMocks());

describe('deleting from a media library', () => {
  it('sends nothing and says so when nothing is ticked', async () => {
    const { state, calls, source, view } = fakeLibrary(ITEMS);
    await runDelete(source, TEXTS, view, []);
    expect(state.notice).toEqual({ text: NOTHING_SELECTED, tone: 'error' });
    expect(calls.confirm).toEqual([]);
    expect(calls.remove).toEqual([]);
  });

  it('asks first, naming the items, and sends nothing on Cancel', async () => {
    const { calls, source, view } = fakeLibrary(ITEMS, { confirmAnswer: false });
    await runDelete(source, TEXTS, view, [2]);
    expect(calls.confirm).toEqual([`Delete probe? ${HARD_DELETE_WARNING}`]);
    expect(calls.remove).toEqual([]);
    expect(calls.afterWrite).toBe(0);
  });

  it('on Ok deletes, shows the server message, unticks, announces the write and reads the list again', async () => {
    const { state, calls, source, view } = fakeLibrary(ITEMS);
    view.tick([1, 2]);
    await runDelete(source, TEXTS, view, [1, 2]);
    expect(calls.remove).toEqual([[[1, 2], false]]);
    expect(state.notice).toEqual({ text: '2 removed.', tone: 'success' });
    expect([...state.ticked]).toEqual([]);
    expect(calls.afterWrite).toBe(1);
    expect(calls.list).toBe(1);
  });

  it('shows a refusal with its report and offers "Delete anyway", which deletes with force without asking again', async () => {
    const { state, calls, source, view } = fakeLibrary(ITEMS, {
      remove: (_ids, force) => (force ? Promise.resolve({ message: 'Image deleted.' }) : Promise.reject(inUse())),
    });
    await runDelete(source, TEXTS, view, [2]);
    expect(state.notice).toEqual({ text: 'Still used.', tone: 'error' });
    expect(state.refused).toEqual({ ids: [2], report: [{ id: 2, message: '"probe" is used in the post "CMM".' }] });
    expect(calls.afterWrite).toBe(0);
    expect(calls.list).toBe(1);

    await runDelete(source, TEXTS, view, [2], true);
    expect(calls.confirm).toHaveLength(1);
    expect(calls.remove.at(-1)).toEqual([[2], true]);
    expect(state.refused).toBeNull();
  });

  it('offers no "Delete anyway" where the server never deletes an item in use (files)', async () => {
    const { state, source, view } = fakeLibrary(ITEMS, { forceable: false, remove: () => Promise.reject(inUse()) });
    await runDelete(source, TEXTS, view, [2]);
    expect(state.notice?.tone).toBe('error');
    expect(state.refused).toBeNull();
  });
});

describe('writing to a media library', () => {
  it('shows the server message, reads the list again and ticks a new upload', async () => {
    const { state, calls, source, view } = fakeLibrary(ITEMS);
    const added = await runWrite(source, TEXTS, view, () => Promise.resolve({ message: 'Image uploaded.', id: 2 }), 'fallback', { tickWritten: true });
    expect(added).toBe(true);
    expect(state.notice).toEqual({ text: 'Image uploaded.', tone: 'success' });
    expect([calls.afterWrite, calls.list]).toEqual([1, 1]);
    expect([...state.ticked]).toEqual([2]);
  });

  it('shows a failure in the error style and changes nothing else', async () => {
    const { state, calls, source, view } = fakeLibrary(ITEMS);
    const added = await runWrite(source, TEXTS, view, () => Promise.reject(new ApiError(422, { message: 'The file must be an image.' })), 'fallback');
    expect(added).toBe(false);
    expect(state.notice).toEqual({ text: 'The file must be an image.', tone: 'error' });
    expect([calls.afterWrite, calls.list]).toEqual([0, 0]);
  });

  it('logs and shows a list that cannot be read, keeping the one shown', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { state, source, view } = fakeLibrary(ITEMS);
    await reloadLibrary({ ...source, list: () => Promise.reject(new ApiError(500, { message: 'Server error' })) }, TEXTS, view);
    expect(logged).toHaveBeenCalledWith('Could not load the items', expect.any(ApiError));
    expect(state.notice).toEqual({ text: 'Server error', tone: 'error' });
    expect(state.items).toEqual(ITEMS);
  });
});

describe('ticks', () => {
  it('tick and untick in a new set, leaving the old one as it was', () => {
    const before = new Set([1, 2]);
    expect([...withTicked(before, 3, true)]).toEqual([1, 2, 3]);
    expect([...withTicked(before, 1, false)]).toEqual([2]);
    expect([...before]).toEqual([1, 2]);
  });

  it('drop the ticks of items no longer in the list', () => {
    expect([...keepExisting(new Set([1, 2, 9]), ITEMS)]).toEqual([1, 2]);
  });
});
