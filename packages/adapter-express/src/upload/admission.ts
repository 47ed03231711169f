/** Which in-flight limit a waiting upload ran into. */
export type AdmissionLimit = 'MAX_UPLOAD_BYTES_IN_FLIGHT' | 'MAX_TENANT_UPLOAD_BYTES_IN_FLIGHT';

interface Waiter {
  tenant: string;
  bytes: number;
  admit: (release: () => void) => void;
}

export interface UploadAdmission {
  /**
   * Resolves with a release function once `bytes` fit under both limits, or with the limit that
   * kept the upload out once `waitMs` passed or `signal` aborted. Waiting uploads are admitted
   * in arrival order, skipping any whose tenant is at its own limit, so one tenant's queue never
   * holds up another tenant.
   */
  acquire(tenant: string, bytes: number, waitMs: number, signal: AbortSignal): Promise<{ release: () => void } | { refused: AdmissionLimit; max: number }>;
  /** Bytes admitted now (all tenants). */
  inFlight(): number;
}

/** Admission for upload bodies by the bytes received: at most `total` bytes in flight, at most `perTenant` for one tenant. */
export function uploadAdmission(total: number, perTenant: number): UploadAdmission {
  let used = 0;
  const byTenant = new Map<string, number>();
  const waiting: Waiter[] = [];

  const blockedBy = (tenant: string, bytes: number): AdmissionLimit | null => {
    if ((byTenant.get(tenant) ?? 0) + bytes > perTenant) return 'MAX_TENANT_UPLOAD_BYTES_IN_FLIGHT';
    if (used + bytes > total) return 'MAX_UPLOAD_BYTES_IN_FLIGHT';
    return null;
  };
  const take = (tenant: string, bytes: number) => {
    used += bytes;
    byTenant.set(tenant, (byTenant.get(tenant) ?? 0) + bytes);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      used -= bytes;
      const left = byTenant.get(tenant)! - bytes;
      if (left > 0) byTenant.set(tenant, left);
      else byTenant.delete(tenant);
      admitWaiting();
    };
  };
  const admitWaiting = () => {
    for (let i = 0; i < waiting.length; ) {
      const w = waiting[i]!;
      const blocked = blockedBy(w.tenant, w.bytes);
      // Room for all tenants goes in arrival order (smaller uploads never starve a larger one);
      // an upload held by its own tenant's limit lets the next ones by.
      if (blocked === 'MAX_UPLOAD_BYTES_IN_FLIGHT') break;
      if (blocked) i++;
      else {
        waiting.splice(i, 1);
        w.admit(take(w.tenant, w.bytes));
      }
    }
  };

  return {
    inFlight: () => used,
    acquire(tenant, bytes, waitMs, signal) {
      const cost = Math.min(bytes, perTenant, total);
      // Admitted at once when it fits and jumps no queue: none of its tenant's, none waiting for room.
      const queued = waiting.some((w) => w.tenant === tenant || blockedBy(w.tenant, w.bytes) === 'MAX_UPLOAD_BYTES_IN_FLIGHT');
      if (!queued && !blockedBy(tenant, cost)) return Promise.resolve({ release: take(tenant, cost) });
      return new Promise((resolve) => {
        const waiter: Waiter = {
          tenant,
          bytes: cost,
          admit: (release) => {
            clearTimeout(timer);
            signal.removeEventListener('abort', giveUp);
            resolve({ release });
          },
        };
        const giveUp = () => {
          const at = waiting.indexOf(waiter);
          if (at < 0) return;
          waiting.splice(at, 1);
          clearTimeout(timer);
          signal.removeEventListener('abort', giveUp);
          // Room may have come free an instant ago; then what held it was its tenant's queue ahead of it, or everyone's.
          const refused = blockedBy(tenant, cost) ?? (waiting.some((w) => w.tenant === tenant) ? 'MAX_TENANT_UPLOAD_BYTES_IN_FLIGHT' : 'MAX_UPLOAD_BYTES_IN_FLIGHT');
          resolve({ refused, max: refused === 'MAX_UPLOAD_BYTES_IN_FLIGHT' ? total : perTenant });
        };
        const timer = setTimeout(giveUp, waitMs);
        signal.addEventListener('abort', giveUp, { once: true });
        waiting.push(waiter);
      });
    },
  };
}
