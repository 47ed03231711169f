/** Scheduled-job state: leases in the store so that several API nodes run each job once. */

export interface JobStore {
  /**
   * Takes the job's lease for `holder` until `until` if it is free or expired at `now`.
   * Returns false when another holder has it: the job is running elsewhere.
   */
  acquireLease(job: string, holder: string, now: string, until: string): Promise<boolean>;
  releaseLease(job: string, holder: string): Promise<void>;
  /**
   * Frees the job leases held by earlier incarnations of `node` (holders starting with `node/`
   * but not with `keepPrefix`): what a restarted node was running when it died. Returns how many.
   */
  reclaimLeases(node: string, keepPrefix: string): Promise<number>;
  /** Resumable state (e.g. a cursor) of a job; null when never stored. */
  getState(job: string): Promise<Record<string, unknown> | null>;
  setState(job: string, state: Record<string, unknown>, at: string): Promise<void>;
}
