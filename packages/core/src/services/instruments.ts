/**
 * Measurements the engine takes for whoever exports them (e.g. Prometheus metrics): listeners are
 * called synchronously and must be cheap. Nothing listens by default.
 */
export function createInstruments() {
  const search = new Set<(seconds: number) => void>();
  return {
    /** Hears the duration of every retrieval (search, answer, chat); returns the unsubscribe. */
    onSearch(listener: (seconds: number) => void): () => void {
      search.add(listener);
      return () => search.delete(listener);
    },
    searched(seconds: number): void {
      for (const listener of search) listener(seconds);
    },
  };
}

export type Instruments = ReturnType<typeof createInstruments>;
