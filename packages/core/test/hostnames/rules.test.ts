import { describe, expect, it } from 'vitest';
import {
  EDGE_HOSTNAME_ACCOUNT_CAP,
  checkApex,
  checkHostnameAllowance,
  dnsInstructions,
  failureMessage,
  generateOwnership,
  hostnameHealth,
  parseHostname,
  resolveLimits,
  type PlanId,
} from '@panya/core';

describe('hostname validation', () => {
  it.each([
    ['Help.Acme.co.th', 'help.acme.co.th', 'acme.co.th', false],
    ['help.acme.com.', 'help.acme.com', 'acme.com', false],
    ['  docs.example.org ', 'docs.example.org', 'example.org', false],
    ['ช่วยเหลือ.ตัวอย่าง.ไทย', 'xn--b3c2cjgvn3e7c7c.xn--72c1a1bt4awk9o.xn--o3cw4h', 'xn--72c1a1bt4awk9o.xn--o3cw4h', false],
    ['bücher.de', 'xn--bcher-kva.de', 'xn--bcher-kva.de', true],
    ['acme.co.th', 'acme.co.th', 'acme.co.th', true],
    ['acme.github.io', 'acme.github.io', 'acme.github.io', true],
  ])('%s → %s', (input, hostname, registrableDomain, apex) => {
    expect(parseHostname(input)._unsafeUnwrap()).toEqual({ hostname, registrableDomain, apex });
  });

  it.each([
    ['', /required/],
    ['*.acme.com', /Wildcard/],
    ['help.acme.com:8443', /without a port/],
    ['192.0.2.10', /IP addresses/],
    ['[2001:db8::1]', /IP addresses/],
    ['2001:db8::1', /IP addresses/],
    ['https://help.acme.com', /without scheme/],
    ['help.acme.com/path', /without scheme/],
    ['localhost', /not a valid hostname/],
    ['-bad.acme.com', /not a valid hostname/],
    ['co.th', /public suffix/],
    [`${'a'.repeat(64)}.acme.com`, /not a valid hostname/],
  ])('refuses %j', (input, message) => {
    const error = parseHostname(input)._unsafeUnwrapErr();
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(message);
  });

  it('refuses an apex domain with the ALIAS / CNAME-flattening explanation unless Enterprise', () => {
    const apex = parseHostname('acme.co.th')._unsafeUnwrap();
    const refused = checkApex(apex, false)._unsafeUnwrapErr();
    expect(refused).toMatchObject({ code: 'plan_required', plan: 'enterprise' });
    expect(refused.message).toMatch(/ALIAS/);
    expect(refused.message).toMatch(/CNAME flattening/);
    expect(checkApex(apex, true).isOk()).toBe(true);
    expect(checkApex(parseHostname('help.acme.co.th')._unsafeUnwrap(), false).isOk()).toBe(true);
  });
});

describe('hostname allowance', () => {
  const limits = (plan: PlanId, quotas = {}) => resolveLimits({ plan, quotas }, new Date('2026-01-01'));
  const counts = (tenantActive: number, accountActive = tenantActive) => ({ tenantActive, accountActive });

  it.each(['free', 'team'] as const)('%s: feature unavailable (plan_required)', (plan) => {
    expect(checkHostnameAllowance(limits(plan), counts(0))._unsafeUnwrapErr()).toMatchObject({ code: 'plan_required', plan: 'business' });
  });

  it.each([
    ['business', 1],
    ['growth', 3],
  ] as const)('%s: %i active record(s), then quota_exceeded', (plan, cap) => {
    expect(checkHostnameAllowance(limits(plan), counts(cap - 1)).isOk()).toBe(true);
    expect(checkHostnameAllowance(limits(plan), counts(cap))._unsafeUnwrapErr()).toMatchObject({ code: 'quota_exceeded', limit: cap });
  });

  it('enterprise is bounded only by the edge account cap, shared by all tenants', () => {
    expect(checkHostnameAllowance(limits('enterprise'), counts(200, EDGE_HOSTNAME_ACCOUNT_CAP - 1)).isOk()).toBe(true);
    expect(checkHostnameAllowance(limits('enterprise'), counts(3, EDGE_HOSTNAME_ACCOUNT_CAP))._unsafeUnwrapErr()).toMatchObject({ code: 'quota_exceeded', limit: 5000 });
  });

  it('the account cap binds a Business tenant too', () => {
    expect(checkHostnameAllowance(limits('business'), counts(0, EDGE_HOSTNAME_ACCOUNT_CAP))._unsafeUnwrapErr()).toMatchObject({ code: 'quota_exceeded', limit: 5000 });
  });

  it('a quotas_json override raises the per-tenant cap', () => {
    expect(checkHostnameAllowance(limits('business', { maxActiveHostnames: 2 }), counts(1)).isOk()).toBe(true);
  });
});

describe('DNS instructions and messages', () => {
  it('TXT name is _edge-custom-hostname.<hostname>, value random per hostname, no trailing dot', () => {
    const a = generateOwnership('help.acme.co.th');
    const b = generateOwnership('help.acme.co.th');
    expect(a.name).toBe('_edge-custom-hostname.help.acme.co.th');
    expect(a.value).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(a.value).not.toBe(b.value);
    const instructions = dnsInstructions({ hostname: 'help.acme.co.th', txtName: a.name, txtValue: a.value }, 'edge.panya.example');
    expect(instructions.cname).toEqual({ name: 'help.acme.co.th', target: 'edge.panya.example' });
    expect(instructions.txt).toEqual({ name: a.name, value: a.value });
    expect(instructions.txt.name.endsWith('.')).toBe(false);
  });

  it('each cause has an inline message in English and Thai', () => {
    expect(failureMessage('dns_not_propagated').en).toMatch(/DNS not propagated/);
    expect(failureMessage('txt_mismatch').en).toMatch(/TXT record mismatch/);
    expect(failureMessage('already_registered').en).toMatch(/already registered elsewhere/);
    for (const cause of ['dns_not_propagated', 'txt_mismatch', 'already_registered', 'edge_refused'] as const) {
      expect(failureMessage(cause).th.length).toBeGreaterThan(10);
    }
  });
});

describe('operator health', () => {
  const at = (hours: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + hours * 3_600_000);
  const verifying = { status: 'verifying_dns' as const, statusChangedAt: '2026-01-01T00:00:00.000Z' };

  it.each([
    [4, false, null],
    [24, false, null],
    [25, true, /24 hours/],
    [7 * 24, true, /24 hours/],
    [7 * 24 + 1, true, /delete/],
  ])('Verifying DNS for %i h: stale=%s', (hours, stale, hint) => {
    const health = hostnameHealth(verifying, at(hours));
    expect(health.stale).toBe(stale);
    if (hint) expect(health.hint).toMatch(hint);
    else expect(health.hint).toBeNull();
  });

  it('only Verifying DNS can be stale', () => {
    expect(hostnameHealth({ ...verifying, status: 'pending' }, at(100)).stale).toBe(false);
    expect(hostnameHealth({ ...verifying, status: 'active' }, at(1000)).stale).toBe(false);
  });
});
