import type { JobStore } from '../../jobs/ports/jobs.js';
import type { SqlDriver } from '../driver.js';
import { sql } from '../sql.js';
import { SqlTable } from '../table.js';
import { JOB_LEASES, JOB_STATE, type JobLeaseRow, type JobStateRow } from '../tables.js';

export class SqlJobs implements JobStore {
  private readonly leases: SqlTable<JobLeaseRow>;
  private readonly states: SqlTable<JobStateRow>;

  constructor(driver: SqlDriver) {
    this.leases = new SqlTable(driver, JOB_LEASES);
    this.states = new SqlTable(driver, JOB_STATE);
  }

  /** One statement: concurrent claimants queue on the row and exactly one of them takes it. */
  async acquireLease(job: string, holder: string, now: string, until: string) {
    const written = await this.leases.run(
      sql`INSERT INTO ${this.leases.ref} AS l (job, holder, until) VALUES (${job}, ${holder}, ${until})
          ON CONFLICT (job) DO UPDATE SET holder = excluded.holder, until = excluded.until
          WHERE l.until < ${now} OR l.holder = ${holder}`,
    );
    return written > 0;
  }

  async releaseLease(job: string, holder: string) {
    await this.leases.run(sql`DELETE FROM ${this.leases.ref} WHERE job = ${job} AND holder = ${holder}`);
  }

  reclaimLeases(node: string, keepPrefix: string) {
    return this.leases.run(sql`DELETE FROM ${this.leases.ref} WHERE ${sql.startsWith('holder', `${node}/`)} AND NOT ${sql.startsWith('holder', keepPrefix)}`);
  }

  async getState(job: string) {
    const row = await this.states.one(sql`SELECT * FROM ${this.states.ref} WHERE job = ${job}`);
    return row ? row.state : null;
  }

  async setState(job: string, state: Record<string, unknown>, at: string) {
    await this.states.insert({ job, state, updatedAt: at }, { on: ['job'], update: true });
  }
}
