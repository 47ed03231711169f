import type { JobStore } from '@panya/core';
import { json, type Conn, type Names } from './database.js';

export class PgJobs implements JobStore {
  constructor(private readonly db: Conn, private readonly n: Names) {}

  /** One statement: concurrent claimants queue on the row and exactly one of them takes it. */
  async acquireLease(job: string, holder: string, now: string, until: string) {
    const table = this.n.t('job_leases');
    const { rowCount } = await this.db.query(
      `INSERT INTO ${table} AS l (job, holder, until) VALUES ($1, $2, $3)
       ON CONFLICT (job) DO UPDATE SET holder = excluded.holder, until = excluded.until
       WHERE l.until < $4 OR l.holder = $2`,
      [job, holder, until, now],
    );
    return (rowCount ?? 0) > 0;
  }

  async releaseLease(job: string, holder: string) {
    await this.db.query(`DELETE FROM ${this.n.t('job_leases')} WHERE job = $1 AND holder = $2`, [job, holder]);
  }

  async reclaimLeases(node: string, keepPrefix: string) {
    const { rowCount } = await this.db.query(`DELETE FROM ${this.n.t('job_leases')} WHERE left(holder, length($1) + 1) = $1 || '/' AND left(holder, length($2)) <> $2`, [node, keepPrefix]);
    return rowCount ?? 0;
  }

  async getState(job: string) {
    const { rows } = await this.db.query(`SELECT state FROM ${this.n.t('job_state')} WHERE job = $1`, [job]);
    return rows[0] ? json<Record<string, unknown>>(rows[0].state) : null;
  }

  async setState(job: string, state: Record<string, unknown>, at: string) {
    await this.db.query(
      `INSERT INTO ${this.n.t('job_state')} (job, state, updated_at) VALUES ($1, $2, $3) ON CONFLICT (job) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
      [job, JSON.stringify(state), at],
    );
  }
}
