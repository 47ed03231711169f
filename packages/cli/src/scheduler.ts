import { JOB_NAMES, JOBS, type Engine, type Logger } from '@panya/core';
import { Cron } from 'croner';

/**
 * Runs the scheduled jobs in-process on their UTC schedules (`panya serve --cron`). Every node
 * may run a scheduler: the per-job lease in the store lets one node execute each firing.
 */
export function startScheduler(engine: Engine, options: { logger: Logger }): { crons: Cron[]; stop(): void } {
  const crons = JOB_NAMES.flatMap((name) => {
    const schedule = JOBS[name].schedule;
    if (!schedule) return [];
    return [
      new Cron(schedule, { timezone: 'UTC', protect: true, name }, async () => {
        try {
          const run = await engine.jobs.run(name, {});
          if (run.isErr()) options.logger.warn('scheduled job failed', { job: name, error: run.error.message });
          else if (!run.value.ran) options.logger.debug('scheduled job skipped', { job: name, reason: run.value.reason });
        } catch (error) {
          options.logger.error('scheduled job crashed', { job: name, error: error instanceof Error ? error.message : String(error) });
        }
      }),
    ];
  });
  options.logger.info('scheduler started', { jobs: crons.map((c) => `${c.name} (${c.getPattern()})`) });
  return { crons, stop: () => crons.forEach((c) => c.stop()) };
}
