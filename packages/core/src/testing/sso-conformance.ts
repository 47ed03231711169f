import { describe, expect, it } from 'vitest';
import type { Store } from '../ports/store.js';
import type { SsoConfigRecord } from '../tenancy/ports/sso.js';
import { seedTwoTenants } from './fixtures.js';

/** Single sign-on: one provider per tenant, attempts taken once, sessions linked per tenant. */
export function ssoSuite(getStore: () => Store): void {
  describe('single sign-on', () => {
    it('keeps one provider per tenant, replaced whole, with its lists, map and switch as written', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const at = '2030-01-01T00:00:00.000Z';
      const config: SsoConfigRecord = { tenantId: s.a.id, issuer: 'https://login.example.com', clientId: 'c1', clientSecret: 'secret-1', allowedDomains: ['example.com', 'example.co.th'], roleClaim: 'groups', roleMap: { admins: 'admin', 'ผู้แก้ไข': 'editor' }, defaultRole: null, passwordLogin: true, createdAt: at, updatedAt: at };
      expect(await store.sso.getConfig(s.a.id)).toBeNull();
      await store.sso.putConfig(config);
      expect(await store.sso.getConfig(s.a.id)).toEqual(config);
      const replaced = { ...config, clientId: 'c2', roleClaim: null, roleMap: {}, defaultRole: 'viewer' as const, passwordLogin: false, updatedAt: '2030-01-02T00:00:00.000Z' };
      await store.sso.putConfig(replaced);
      expect(await store.sso.getConfig(s.a.id)).toEqual(replaced);
      expect(await store.sso.getConfig(s.b.id)).toBeNull();
      expect(await store.sso.deleteConfig(s.b.id)).toBe(false);
      expect(await store.sso.deleteConfig(s.a.id)).toBe(true);
      expect(await store.sso.getConfig(s.a.id)).toBeNull();
    });

    it('returns an attempt once, drops a tenant\'s expired attempts, and links sessions to one tenant', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const attempt = (id: string, tenantId: string, expiresAt: string) => ({ id, tenantId, nonce: `n-${id}`, codeVerifier: `v-${id}`, createdAt: '2030-01-01T00:00:00.000Z', expiresAt });
      await store.sso.saveState(attempt('old-a', s.a.id, '2030-01-01T00:05:00.000Z'), '2030-01-01T00:00:00.000Z');
      await store.sso.saveState(attempt('old-b', s.b.id, '2030-01-01T00:05:00.000Z'), '2030-01-01T00:00:00.000Z');
      // A later attempt of tenant A drops A's expired one, not B's.
      await store.sso.saveState(attempt('new-a', s.a.id, '2030-01-01T00:20:00.000Z'), '2030-01-01T00:10:00.000Z');
      expect(await store.sso.liveStates(s.a.id, '2030-01-01T00:10:00.000Z')).toBe(1);
      expect(await store.sso.liveStates(s.b.id, '2030-01-01T00:10:00.000Z')).toBe(0);
      expect(await store.sso.liveStates(s.b.id, '2030-01-01T00:04:00.000Z')).toBe(1);
      expect(await store.sso.takeState('old-a')).toBeNull();
      expect(await store.sso.takeState('old-b')).toMatchObject({ tenantId: s.b.id, nonce: 'n-old-b', codeVerifier: 'v-old-b' });
      expect(await store.sso.takeState('new-a')).toEqual(attempt('new-a', s.a.id, '2030-01-01T00:20:00.000Z'));
      expect(await store.sso.takeState('new-a')).toBeNull();
      // Two callbacks at once: exactly one gets the attempt.
      await store.sso.saveState(attempt('race', s.a.id, '2030-01-01T00:30:00.000Z'), '2030-01-01T00:10:00.000Z');
      const taken = await Promise.all([store.sso.takeState('race'), store.sso.takeState('race')]);
      expect(taken.filter((t) => t !== null)).toHaveLength(1);

      await store.sso.linkSession({ sessionId: 'sess-1', tenantId: s.a.id, userId: 'usr-1', createdAt: '2030-01-01T00:00:00.000Z', expiresAt: '2030-01-15T00:00:00.000Z' });
      expect(await store.sso.openedBy('sess-1', s.a.id)).toBe(true);
      expect(await store.sso.openedBy('sess-1', s.b.id)).toBe(false);
      expect(await store.sso.openedBy('sess-2', s.a.id)).toBe(false);
      // A later link drops the tenant's expired ones.
      await store.sso.linkSession({ sessionId: 'sess-3', tenantId: s.a.id, userId: 'usr-1', createdAt: '2030-02-01T00:00:00.000Z', expiresAt: '2030-02-15T00:00:00.000Z' });
      expect(await store.sso.openedBy('sess-1', s.a.id)).toBe(false);
      expect(await store.sso.openedBy('sess-3', s.a.id)).toBe(true);
    });
  });
}
