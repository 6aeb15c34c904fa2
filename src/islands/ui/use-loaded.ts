// Data an island reads from the API when it appears, with a reload for after each change. A failed load
// is logged and flagged (the island says so and offers a retry); an answer that arrives after the island
// is gone is dropped.
import { useCallback, useEffect, useState, type Dispatch, type SetStateAction } from 'react';

export interface Loaded<T> {
  /** null until the first answer. */
  value: T | null;
  setValue: Dispatch<SetStateAction<T | null>>;
  failed: boolean;
  reload: () => Promise<void>;
}

/** `load` must be stable (a module function or a memoised callback): a new one loads again. */
export function useLoaded<T>(load: () => Promise<T>, what: string): Loaded<T> {
  const [value, setValue] = useState<T | null>(null);
  const [failed, setFailed] = useState(false);

  const reload = useCallback(async () => {
    try {
      setValue(await load());
      setFailed(false);
    } catch (error) {
      console.error(`Could not load ${what}`, error);
      setFailed(true);
    }
  }, [load, what]);

  useEffect(() => {
    let current = true;
    load().then(
      (loaded) => current && setValue(loaded),
      (error: unknown) => {
        console.error(`Could not load ${what}`, error);
        if (current) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, [load, what]);

  return { value, setValue, failed, reload };
}
