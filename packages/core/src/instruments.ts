/**
 * Measurements the engine takes for whoever exports them (e.g. Prometheus metrics): listeners are
 * called synchronously and must be cheap. Nothing listens by default.
 */
export function createInstruments() {
  const search = new Set<(seconds: number) => void>();
  const cached = new Set<() => void>();
  return {
    /** Hears the duration of every retrieval (search, answer, chat); returns the unsubscribe. */
    onSearch(listener: (seconds: number) => void): () => void {
      search.add(listener);
      return () => search.delete(listener);
    },
    searched(seconds: number): void {
      for (const listener of search) listener(seconds);
    },
    /** Hears every search answered from the cache of recent answers (no retrieval ran). */
    onCachedSearch(listener: () => void): () => void {
      cached.add(listener);
      return () => cached.delete(listener);
    },
    answeredFromCache(): void {
      for (const listener of cached) listener();
    },
  };
}

export type Instruments = ReturnType<typeof createInstruments>;
