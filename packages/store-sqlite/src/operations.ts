import type { JobStore } from '@panya/core';
import type { Runner, Statements } from './database.js';

type Row = Record<string, unknown>;

export class SqliteJobs implements JobStore {
  constructor(private readonly sql: Statements, private readonly run: Runner) {}

  acquireLease(job: string, holder: string, now: string, until: string) {
    return this.run(
      () =>
        this.sql
          .get('INSERT INTO job_leases (job, holder, until) VALUES (@job, @holder, @until) ON CONFLICT (job) DO UPDATE SET holder = @holder, until = @until WHERE job_leases.until < @now OR job_leases.holder = @holder')
          .run({ job, holder, now, until }).changes > 0,
    );
  }

  releaseLease(job: string, holder: string) {
    return this.run(() => {
      this.sql.get('DELETE FROM job_leases WHERE job = ? AND holder = ?').run(job, holder);
    });
  }

  reclaimLeases(node: string, keepPrefix: string) {
    return this.run(
      () =>
        this.sql
          .get("DELETE FROM job_leases WHERE substr(holder, 1, length(@node) + 1) = @node || '/' AND substr(holder, 1, length(@keep)) <> @keep")
          .run({ node, keep: keepPrefix }).changes,
    );
  }

  getState(job: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT state FROM job_state WHERE job = ?').get(job) as Row | undefined;
      return row ? (JSON.parse(row.state as string) as Record<string, unknown>) : null;
    });
  }

  setState(job: string, state: Record<string, unknown>, at: string) {
    return this.run(() => {
      this.sql.get('INSERT INTO job_state (job, state, updated_at) VALUES (?, ?, ?) ON CONFLICT (job) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at').run(job, JSON.stringify(state), at);
    });
  }
}
