/**
 * What a tenant may register as a custom hostname: a DNS name (IDN converted to punycode), never
 * an IP address, a wildcard, a port or a URL, and — unless the plan allows it — never an apex
 * domain, because a plain CNAME cannot live at the apex (ALIAS / CNAME flattening is needed).
 */
import { err, ok, type Result } from 'neverthrow';
import { parse } from 'tldts';
import { errors, panyaError, type PanyaError } from '../errors.js';
import { apexRefused } from '../messages.js';

export interface ValidHostname {
  /** Lower-case ASCII (punycode) form, no trailing dot: the form stored and sent to the edge. */
  hostname: string;
  /** The registrable domain (public-suffix aware), e.g. `acme.co.th` for `help.acme.co.th`. */
  registrableDomain: string;
  /** True when the hostname is the registrable domain itself (zone apex). */
  apex: boolean;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const MAX_LENGTH = 253;

const invalid = (message: string) => err(errors.invalid(message, [{ path: 'hostname', message }]));


/** Normalises and checks the shape of a hostname; the apex rule is `checkApex`'s. */
export function parseHostname(input: unknown): Result<ValidHostname, PanyaError> {
  if (typeof input !== 'string' || input.trim() === '') return invalid('hostname is required, e.g. "help.example.com".');
  let raw = input.trim().toLowerCase();
  if (raw.includes('*')) return invalid('Wildcard hostnames are not supported: register each hostname on its own.');
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(raw) || /[/?#@\s]/.test(raw)) {
    return invalid('Give the hostname only, without scheme, path or spaces, e.g. "help.example.com".');
  }
  if (raw.startsWith('[') || raw.includes(':')) {
    return invalid(raw.split(':').length > 2 ? 'IP addresses cannot be used: give a DNS hostname.' : 'Give the hostname without a port.');
  }
  if (raw.endsWith('.')) raw = raw.slice(0, -1);
  let ascii: string;
  try {
    // WHATWG URL parsing applies IDNA (UTS #46): Unicode labels become punycode.
    ascii = new URL(`http://${raw}/`).hostname;
  } catch {
    return invalid(`"${input.trim()}" is not a valid hostname.`);
  }
  const parsed = parse(ascii, { allowPrivateDomains: true });
  if (parsed.isIp || /^[0-9.]+$/.test(ascii)) return invalid('IP addresses cannot be used: give a DNS hostname.');
  const labels = ascii.split('.');
  if (ascii.length > MAX_LENGTH || labels.length < 2 || !labels.every((l) => LABEL.test(l))) {
    return invalid(`"${input.trim()}" is not a valid hostname.`);
  }
  if (!parsed.domain) return invalid(`"${ascii}" is a public suffix, not a domain you can own.`);
  return ok({ hostname: ascii, registrableDomain: parsed.domain, apex: ascii === parsed.domain });
}

/** Refuses an apex hostname unless the plan supports apex records (Enterprise). */
export function checkApex(host: ValidHostname, apexAllowed: boolean): Result<ValidHostname, PanyaError> {
  if (!host.apex || apexAllowed) return ok(host);
  const localized = apexRefused(host.hostname);
  return err(panyaError('plan_required', { plan: 'enterprise', message: localized.en, localized }));
}
