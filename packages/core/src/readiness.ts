import { READINESS_TIMEOUT_MS } from './bounds.js';
import type { Store, StoreHealth } from './ports/store.js';

/** One condition of readiness: `ok`, or why not. */
export interface ReadinessCheck {
  ok: boolean;
  detail?: string;
}

export interface Readiness {
  ready: boolean;
  checks: { database: ReadinessCheck; migrations: ReadinessCheck; ingestWorker: ReadinessCheck };
  /** Documents waiting for the ingest worker (null when the database did not answer). */
  queuedDocuments: number | null;
}

/**
 * Whether this node can serve: the database answers, no migration this code knows is pending
 * (a newer schema is fine: migrations are additive, so old nodes keep serving during a rollout),
 * and the ingest worker runs (acknowledged documents get indexed).
 */
export async function checkReadiness(store: Store, worker: { alive(): boolean }, timeoutMs = READINESS_TIMEOUT_MS): Promise<Readiness> {
  const ingestWorker: ReadinessCheck = worker.alive() ? { ok: true } : { ok: false, detail: 'The ingest worker is not running.' };
  let health;
  try {
    health = await answeredWithin(store.health(), timeoutMs);
  } catch (error) {
    const detail = `The database did not answer: ${error instanceof Error ? error.message : String(error)}`;
    return { ready: false, checks: { database: { ok: false, detail }, migrations: { ok: false, detail: 'Unknown: the database did not answer.' }, ingestWorker }, queuedDocuments: null };
  }
  const migrations: ReadinessCheck =
    health.schemaVersion >= health.latestSchemaVersion
      ? { ok: true }
      : { ok: false, detail: `The database schema is at migration ${health.schemaVersion}; this version of Panya expects ${health.latestSchemaVersion}: restart the node (opening the store applies pending migrations).` };
  return { ready: migrations.ok && ingestWorker.ok, checks: { database: { ok: true }, migrations, ingestWorker }, queuedDocuments: health.queuedDocuments };
}

/** A database whose server vanished without closing the connection never answers: a probe waits only so long. */
async function answeredWithin(health: Promise<StoreHealth>, ms: number): Promise<StoreHealth> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms / 1000} s.`)), ms);
  });
  try {
    return await Promise.race([health, late]);
  } finally {
    clearTimeout(timer);
  }
}
