/**
 * No edge provider configured (the default). Custom hostnames answer 503 with how to configure
 * one (the service checks `id === 'none'` before calling); purge has nothing to do.
 */
import type { EdgeObservation, EdgeProvider, EdgeRegistration } from '@panya/core';

export class NoEdge implements EdgeProvider {
  readonly id = 'none';

  async register(): Promise<EdgeRegistration> {
    return { outcome: 'unavailable', reason: 'no edge provider is configured' };
  }

  async status(): Promise<EdgeObservation> {
    return { state: 'unknown', reason: 'no edge provider is configured' };
  }

  async remove(): Promise<void> {}

  async purge(): Promise<void> {}
}
