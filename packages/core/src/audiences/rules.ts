/**
 * Who reads which documents. A document names the audiences that may read it: `public` (the help
 * center, the widget, every publishable key), `customers` (signed-in visitors), named segments
 * (`enterprise`, `partner-th`: visitors whose signed identity carries the segment), or only
 * `internal` (secret keys, MCP hosts, agents and members, who read every document). The search
 * index filters by a reader's audience set inside each channel's query, before its top k.
 */
import type { PublicSurface } from '../ports/store.js';

export const AUDIENCE_PUBLIC = 'public';
export const AUDIENCE_CUSTOMERS = 'customers';
export const AUDIENCE_INTERNAL = 'internal';
/**
 * The public surface the help center shows: documents with "Help center" ticked (the spec's
 * `publicSurfaces` field), which publishes a document to `public`.
 */
export const HELP_CENTER_SURFACE: PublicSurface = 'help_center';

/** A segment's name: lower-case letters, digits and dashes (`partner-th`), as a token carries it. */
export const SEGMENT_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;
/** Audiences one document may name; segments one visitor token may carry. */
export const MAX_AUDIENCES = 32;

/** A document's audiences as stored: sorted, unique; `['internal']` when no outside reader may read it. */
export function normalAudiences(audiences: Iterable<string>): string[] {
  const named = [...new Set(audiences)].filter((a) => a !== AUDIENCE_INTERNAL).sort();
  return named.length > 0 ? named : [AUDIENCE_INTERNAL];
}

/**
 * A document's audiences and public surfaces after a write: `public` and the help-center surface
 * say the same thing, so setting either sets both. A field the write leaves out keeps its value.
 */
export function documentVisibility(
  input: { audiences?: readonly string[] | undefined; publicSurfaces?: readonly PublicSurface[] | undefined },
  current: { audiences: readonly string[]; publicSurfaces: readonly PublicSurface[] } = { audiences: [AUDIENCE_INTERNAL], publicSurfaces: [] },
): { audiences: string[]; publicSurfaces: PublicSurface[] } {
  const surfaces = new Set(input.publicSurfaces ?? current.publicSurfaces);
  const audiences = new Set(input.audiences ?? current.audiences);
  // The field the write names decides; when it names both, either one publishes.
  const published =
    input.audiences !== undefined && input.publicSurfaces === undefined
      ? audiences.has(AUDIENCE_PUBLIC)
      : input.publicSurfaces !== undefined && input.audiences === undefined
        ? surfaces.has(HELP_CENTER_SURFACE)
        : surfaces.has(HELP_CENTER_SURFACE) || audiences.has(AUDIENCE_PUBLIC);
  if (published) {
    surfaces.add(HELP_CENTER_SURFACE);
    audiences.add(AUDIENCE_PUBLIC);
  } else {
    surfaces.delete(HELP_CENTER_SURFACE);
    audiences.delete(AUDIENCE_PUBLIC);
  }
  return { audiences: normalAudiences(audiences), publicSurfaces: [...surfaces] };
}

/** What a verified visitor token says about its visitor (see tenancy/visitor-tokens.ts). */
export interface VisitorIdentity {
  /** The tenant's own id for the visitor (`sub`). */
  id: string;
  email: string | null;
  name: string | null;
  locale: string | null;
  segments: string[];
}

/** The caller fields the rule reads (services' `Principal`). */
export interface Reader {
  publishable?: boolean | undefined;
  surface?: PublicSurface | undefined;
}

/**
 * The audiences a caller reads; null: every document (secret keys, MCP, members, the operator).
 * A publishable key — public by construction, whatever `Origin` it is sent with — and a key
 * restricted to the help center read `public`, and with a verified visitor identity also
 * `customers` and the visitor's segments. An unsigned visitor is anonymous: `public` only.
 */
export function readerAudiences(principal: Reader, identity?: VisitorIdentity | null): string[] | null {
  if (!principal.publishable && principal.surface !== HELP_CENTER_SURFACE) return null;
  if (!identity) return [AUDIENCE_PUBLIC];
  return [...new Set([AUDIENCE_PUBLIC, AUDIENCE_CUSTOMERS, ...identity.segments.filter((s) => s !== AUDIENCE_INTERNAL)])].sort();
}

/** Whether a reader with `reader` audiences (null: every document) may read a document with `audiences`. */
export function canRead(reader: readonly string[] | null, audiences: readonly string[]): boolean {
  return reader === null || audiences.some((a) => reader.includes(a));
}
