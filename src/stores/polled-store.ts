// A value read from the API and read again on a timer: quickly while something is in progress (a build,
// a mailing being sent), slowly or not at all otherwise. Polling runs only while a component listens
// (nanostores' onMount), pauses while the tab is hidden, and catches up when it is shown again, so an
// admin screen left open in a background tab does not keep the server busy.
import { atom, onMount, type ReadableAtom } from 'nanostores';

export interface Polled<T> {
  value: T | null;
  /** The last refresh failed (the value, if any, is older). */
  failed: boolean;
}

export interface PolledStore<T> {
  $store: ReadableAtom<Polled<T>>;
  /** Reads now; resolves with the fresh value (null when the read failed). */
  refresh(): Promise<T | null>;
  /** Takes a value the server just answered (e.g. with a POST) without another request. */
  accept(value: T): void;
  /** Resolves with the first value, present or future, that satisfies `done`. */
  until(done: (value: T) => boolean): Promise<T>;
}

interface Options<T> {
  load: () => Promise<T>;
  /** True while the value is expected to change soon. */
  busy: (value: T) => boolean;
  busyMs: number;
  /** Interval when nothing is in progress; null: no polling then. */
  idleMs: number | null;
}

export function createPolledStore<T>({ load, busy, busyMs, idleMs }: Options<T>): PolledStore<T> {
  const $store = atom<Polled<T>>({ value: null, failed: false });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let listening = false;
  let inFlight: Promise<T | null> | undefined;

  const schedule = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!listening) return;
    const value = $store.get().value;
    const wait = value !== null && busy(value) ? busyMs : idleMs;
    if (wait !== null) timer = setTimeout(() => void tick(), wait);
  };

  const tick = async () => {
    // Hidden: skip this read; onVisible reads at once when the admin comes back.
    if (document.hidden) return schedule();
    await refresh();
  };

  const accept = (value: T) => {
    $store.set({ value, failed: false });
    schedule();
  };

  function refresh(): Promise<T | null> {
    // Concurrent callers share one request instead of racing each other's answers.
    inFlight ??= load()
      .then((value) => {
        accept(value);
        return value;
      })
      .catch((error: unknown) => {
        console.error('Could not refresh', error);
        $store.set({ ...$store.get(), failed: true });
        schedule();
        return null;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  }

  const onVisible = () => {
    if (!document.hidden) void refresh();
  };

  onMount($store, () => {
    listening = true;
    document.addEventListener('visibilitychange', onVisible);
    void refresh();
    return () => {
      listening = false;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  });

  const until = (done: (value: T) => boolean) =>
    new Promise<T>((resolve) => {
      // listen() fires on changes only; the current value is checked first.
      const current = $store.get().value;
      if (current !== null && done(current)) return resolve(current);
      const unbind = $store.listen(({ value }) => {
        if (value !== null && done(value)) {
          unbind();
          resolve(value);
        }
      });
    });

  return { $store, refresh, accept, until };
}
