/**
 * The screens to tell of a store's change: `subscribe` (as useSyncExternalStore
 * takes it) adds one and gives back its removal; `emit` calls each, from a copy,
 * so one that unsubscribes while it runs skips no other.
 */
export function createListeners() {
  const listeners = new Set<() => void>();
  return {
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    emit(): void {
      for (const listener of [...listeners]) listener();
    },
  };
}
