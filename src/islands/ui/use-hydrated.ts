// False while React hydrates server-rendered HTML (and in that HTML), true afterwards. Lets an island
// render exactly what the build rendered during hydration, then switch to browser-only values, and keep a
// form from being submitted natively before its handlers exist.
import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
