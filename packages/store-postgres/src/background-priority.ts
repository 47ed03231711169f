import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { BACKGROUND_NICE } from '@panya/core';
import type pg from 'pg';

/**
 * Runs the server processes of a pool's connections at background priority, as the threads that
 * use them (ingest) run: on one machine, Postgres's work for ingest otherwise competes for the cores
 * with the serving threads at full priority, and a search waits in the run queue behind it. Applies
 * only where it can: a server reached on this machine (a Unix socket or loopback address) whose
 * backend this process may renice (same user, or CAP_SYS_NICE). Anywhere else it does nothing.
 */
export function lowerBackendPriority(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    client
      .query<{ pid: number; local: boolean }>("SELECT pg_backend_pid() AS pid, coalesce(host(inet_server_addr()) IN ('127.0.0.1', '::1'), true) AS local")
      .then(({ rows }) => {
        const { pid, local } = rows[0] ?? { pid: 0, local: false };
        // The pid names the backend only on the server's machine (and PID namespace): a process of that pid here must be Postgres.
        if (local && pid > 0 && readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') setPriority(pid, BACKGROUND_NICE);
      })
      .catch(() => undefined);
  });
}
