// What a media library (page images, home images, extra files) does, apart from React: uploads and
// other writes with their notices, deletes with the Ok/Cancel question and the refused-deletion report,
// and the ticks. useMediaLibrary wires these to state; tests drive them with a fake source.
import type { FormMessage } from '../../ui/form-errors.ts';
import { failureNotice, isConflict, reportOf, successNotice } from '../notices.ts';
import { HARD_DELETE_WARNING, type Confirm } from '../../ui/use-confirm.tsx';
import type { RefusedDeletion } from './RefusedDeletions.tsx';

export const FILE_NOT_SELECTED = 'File not selected';
export const NOTHING_SELECTED = 'Nothing selected!';

/** The server calls that differ between libraries. */
export interface MediaSource<Item extends { id: number }> {
  list: () => Promise<Item[]>;
  /** Deletes the items; `force` deletes those still in use too. */
  remove: (ids: number[], force: boolean) => Promise<{ message?: string }>;
  /** Whether items in use may be deleted anyway (images may; a file attached to a post may not). */
  forceable: boolean;
}

/** The words that differ between libraries. */
export interface MediaTexts<Item> {
  /** Success notice when the server's answer has no message. */
  deleted: string;
  /** Title of the Ok/Cancel dialog before a delete. */
  deleteTitle: string;
  /** Its question, before the hard-delete warning. */
  deleteQuestion: (items: Item[], ids: number[]) => string;
  /** For the console when the list cannot be read. */
  loadFailed: string;
}

/** What the actions may change; the hook backs these with React state. */
export interface MediaLibraryView<Item> {
  items: () => Item[];
  setItems: (items: Item[]) => void;
  setNotice: (notice: FormMessage | null) => void;
  setRefused: (refused: RefusedDeletion | null) => void;
  tick: (ids: number[]) => void;
  untick: (ids: number[]) => void;
  confirm: Confirm;
  /** Every successful write: announces the publish, refreshes what shows the library elsewhere. */
  afterWrite: () => void | Promise<void>;
}

/** `ticked` with `id` ticked (`on`) or not: a new set, for a state update. */
export function withTicked(ticked: ReadonlySet<number>, id: number, on: boolean): ReadonlySet<number> {
  const next = new Set(ticked);
  if (on) next.add(id);
  else next.delete(id);
  return next;
}

/** The ticks that still name an item: the ticks of deleted items go with them. */
export function keepExisting(ticked: ReadonlySet<number>, items: readonly { id: number }[]): ReadonlySet<number> {
  const ids = new Set(items.map((item) => item.id));
  return new Set([...ticked].filter((id) => ids.has(id)));
}

/** Reads the list again; a failure is logged and shown, and the list stays as it was. */
export async function reloadLibrary<Item extends { id: number }>(
  source: MediaSource<Item>,
  texts: MediaTexts<Item>,
  view: MediaLibraryView<Item>,
): Promise<void> {
  try {
    view.setItems(await source.list());
  } catch (error) {
    console.error(texts.loadFailed, error);
    view.setNotice(failureNotice(error));
  }
}

export interface WriteOptions {
  /** Tick the item the answer names (a new upload, ready for "Insert into text"). */
  tickWritten?: boolean;
}

type WriteAnswer = { message?: string; id?: number };

/**
 * One write whose failure the caller shows (an item's own message line): on success the server's
 * message (or `fallback`) as the library's notice unless `fallback` is null, then the list again.
 */
export async function applyWrite<Item extends { id: number }, Answer extends WriteAnswer>(
  source: MediaSource<Item>,
  texts: MediaTexts<Item>,
  view: MediaLibraryView<Item>,
  write: () => Promise<Answer>,
  fallback: string | null,
  options: WriteOptions = {},
): Promise<Answer> {
  const answer = await write();
  if (fallback !== null) view.setNotice(successNotice(answer, fallback));
  await view.afterWrite();
  await reloadLibrary(source, texts, view);
  if (options.tickWritten && answer.id !== undefined) view.tick([answer.id]);
  return answer;
}

/** One write (upload, video link, move) whose failure is the library's notice; true when it succeeded. */
export async function runWrite<Item extends { id: number }>(
  source: MediaSource<Item>,
  texts: MediaTexts<Item>,
  view: MediaLibraryView<Item>,
  write: () => Promise<WriteAnswer>,
  fallback: string,
  options: WriteOptions = {},
): Promise<boolean> {
  try {
    await applyWrite(source, texts, view, write, fallback, options);
    return true;
  } catch (error) {
    view.setNotice(failureNotice(error));
    return false;
  }
}

/**
 * Deletes `ids` after Ok/Cancel (`force`, the "Delete anyway" of a refused delete, has been asked
 * already). Nothing is sent when nothing is ticked. Items still in use are refused by the server with a
 * report, shown with the offer to delete anyway. The list is read again whatever the outcome.
 */
export async function runDelete<Item extends { id: number }>(
  source: MediaSource<Item>,
  texts: MediaTexts<Item>,
  view: MediaLibraryView<Item>,
  ids: number[],
  force = false,
): Promise<void> {
  if (ids.length === 0) return view.setNotice({ text: NOTHING_SELECTED, tone: 'error' });
  if (!force) {
    const question = texts.deleteQuestion(
      view.items().filter((item) => ids.includes(item.id)),
      ids,
    );
    if (!(await view.confirm({ title: texts.deleteTitle, message: `${question} ${HARD_DELETE_WARNING}`, confirmLabel: 'Delete' }))) return;
  }
  try {
    const answer = await source.remove(ids, force);
    view.setRefused(null);
    view.setNotice(successNotice(answer, texts.deleted));
    view.untick(ids);
    await view.afterWrite();
  } catch (error) {
    view.setNotice(failureNotice(error));
    view.setRefused(source.forceable && isConflict(error) ? { ids, report: reportOf(error) } : null);
  }
  await reloadLibrary(source, texts, view);
}
