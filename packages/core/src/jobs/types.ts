import type { MeterEventNames } from '../billing/catalog.js';
import type { Embedder } from '../search/ports/embedder.js';
import type { PaymentProcessor } from '../billing/ports/payment.js';
import type { Scope, Store } from '../ports/store.js';
import type { Ids, Logger } from '../ports/system.js';

/** What a scheduled job may use. `tenantId` set: admin mode, confined to that tenant. */
export interface JobContext {
  store: Store;
  embedder: Embedder;
  logger: Logger;
  /** Ids for records jobs write (resolutions); defaults to the system's. */
  ids?: Ids;
  tenantId?: string;
  /** Time budget for jobs that work in slices (vectorize-reindex). */
  budgetMs?: number;
  /** Confirms the index holds this embedder's vectors before a job writes any. */
  ensureIndex(): Promise<void>;
  /** Meter event names configured for the payment processor, by meter. */
  meterEventNames: MeterEventNames;
  /** Custom hostnames (the poll of pending records); absent in jobs run without an engine. */
  hostnames?: { poll(): Promise<Record<string, unknown>> };
  /** Tenant erasure (the retention job purges erased tenants' help-center URLs at the edge). */
  erasure?: { purgeErased(): Promise<{ tenantsPurged: number; cachePurges: number; purgeFailures: number }> };
  /** The document a question is closest to (the search pipeline's best hit); absent in jobs run without an engine. */
  nearestDocument?: (scope: Scope, query: string) => Promise<{ id: string; title: string; url: string | null } | null>;
  /** The payment processor the usage reporter sends meter events to; absent: billing is off. */
  payments?: PaymentProcessor;
}
