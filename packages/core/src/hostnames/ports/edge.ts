/**
 * Custom-hostname registration at an edge provider (Cloudflare for SaaS, or plain DNS checks for
 * self-hosters whose proxy issues TLS), and cache purge. Adapters translate the provider's own
 * states into an `EdgeObservation`; the hostname state machine in core decides what it means.
 */

/** Why a hostname cannot (yet) serve; core turns the cause into the inline message. */
export const HOSTNAME_FAILURE_CAUSES = [
  'dns_not_propagated',
  'txt_mismatch',
  'already_registered',
  /** The provider refused or withdrew the hostname (blocked, moved, deleted, TLS timed out). */
  'edge_refused',
] as const;
export type HostnameFailureCause = (typeof HOSTNAME_FAILURE_CAUSES)[number];

export interface HostnameProblem {
  cause: HostnameFailureCause;
  /** The provider's own words, kept for operators and support. */
  detail: string;
}

/** A TXT record the provider itself checks (overrides the one core generated). */
export interface OwnershipRecord {
  name: string;
  value: string;
}

/**
 * What the provider says about one hostname right now.
 * - `verifying`: registered, waiting for DNS/TLS; `problem` says what is still missing.
 * - `active`: the hostname and its certificate are both live.
 * - `failed`: the provider gave up or refused; terminal until the tenant fixes it and re-checks.
 * - `unknown`: the provider could not be asked (outage, timeout); never a reason to fail a hostname.
 */
export type EdgeObservation =
  | { state: 'verifying'; problem: HostnameProblem | null; ownership?: OwnershipRecord }
  | { state: 'active'; ownership?: OwnershipRecord }
  | { state: 'failed'; problem: HostnameProblem; ownership?: OwnershipRecord }
  | { state: 'unknown'; reason: string };

export interface EdgeRegistrationRequest {
  hostname: string;
  /** The TXT record core generated for this hostname (checked by providers that do their own look-ups). */
  ownership: OwnershipRecord;
}

export type EdgeRegistration =
  | { outcome: 'registered'; edgeHostnameId: string; observation: EdgeObservation }
  /** The provider refused the hostname (e.g. it is registered in another zone). */
  | { outcome: 'refused'; problem: HostnameProblem }
  /** The provider could not be reached; the record stays Pending and is retried. */
  | { outcome: 'unavailable'; reason: string };

export interface EdgeHostnameRef {
  edgeHostnameId: string;
  hostname: string;
  ownership: OwnershipRecord;
}

export interface EdgePurge {
  /** Full URLs, e.g. `https://help.example.com/acme/article/doc_1`. */
  urls?: readonly string[];
  /** URL prefixes without scheme, e.g. `help.example.com/acme/`. */
  prefixes?: readonly string[];
  /** Whole hostnames, e.g. `docs.acme.co.th`. */
  hosts?: readonly string[];
}

export interface EdgeProvider {
  /** `cloudflare`, `dns`, `none`, … (shown in operator views). */
  readonly id: string;
  register(request: EdgeRegistrationRequest): Promise<EdgeRegistration>;
  status(ref: EdgeHostnameRef): Promise<EdgeObservation>;
  /** Removes the registration; a registration already gone is not an error. */
  remove(edgeHostnameId: string): Promise<void>;
  /** Throws when the provider could not purge (the caller retries later). */
  purge(request: EdgePurge): Promise<void>;
}
