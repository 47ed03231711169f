/**
 * Personal data redaction: e-mail addresses, phone numbers (Thai and E.164), payment card numbers
 * (Luhn-valid), Thai national ID numbers (valid check digit) and a workspace's own patterns are
 * replaced by a marker such as `[EMAIL]` before text is stored or sent to a model provider.
 *
 * Built-in patterns are written so that every quantifier is bounded and no two overlap
 * ambiguously (linear in the text). Operator patterns run on RE2 (`re2js`), which matches in
 * linear time whatever the pattern, so a pattern can never backtrack catastrophically.
 */
import { RE2JS } from 're2js';
import type { RedactionPattern } from './ports/privacy.js';

export const PII_KINDS = ['email', 'thai_id', 'card', 'phone'] as const;
export type PiiKind = (typeof PII_KINDS)[number];

/** The marker that replaces each kind. */
export const PII_MARKERS: Record<PiiKind, string> = { email: '[EMAIL]', thai_id: '[THAI_ID]', card: '[CARD]', phone: '[PHONE]' };

export type { RedactionPattern };

export const MAX_REDACTION_PATTERNS = 20;
export const MAX_PATTERN_CHARS = 200;
export const PATTERN_NAME = /^[a-z][a-z0-9_]{0,31}$/;

/** A digit, Arabic or Thai (๐–๙). */
const D = '[0-9\u0E50-\u0E59]';
/** Digits and Latin letters glued to a number make it part of a longer token (an order code, a hash). */
const BEFORE = '(?<![0-9\u0E50-\u0E59A-Za-z])';
const AFTER = '(?![0-9\u0E50-\u0E59A-Za-z])';
const SEP = '[ -]';

/** A local part and domain labels in Latin or in Thai script (internationalised addresses, e.g. `สมชาย@ตัวอย่าง.ไทย`), never mixed. */
const EMAIL = /(?<![A-Za-z0-9._%+-])(?:[A-Za-z0-9._%+-]{1,64}|[\u0E00-\u0E7F0-9._%+-]{1,64})@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?){0,8}\.[A-Za-z]{2,24}|[\u0E00-\u0E7F0-9](?:[\u0E00-\u0E7F0-9-]{0,61})?(?:\.[\u0E00-\u0E7F0-9][\u0E00-\u0E7F0-9-]{0,61}){0,8}\.(?:[\u0E00-\u0E7F]{2,24}|[A-Za-z]{2,24}))(?![A-Za-z0-9-])/g;

/** 13 digits, plain or in the card's printed grouping 1-2345-67890-12-3. */
const THAI_ID = new RegExp(`${BEFORE}(?:${D}{13}|${D}${SEP}${D}{4}${SEP}${D}{5}${SEP}${D}{2}${SEP}${D})${AFTER}`, 'g');

/** 13–19 digits, plain or in groups of 4 (Amex 4-6-5) separated by the same space or dash throughout. */
const CARD = new RegExp(`${BEFORE}(?:${D}{13,19}|${D}{4}(?<sep>[ -])${D}{4}\\k<sep>${D}{4}\\k<sep>${D}{1,7}|${D}{4}${SEP}${D}{6}${SEP}${D}{5})${AFTER}`, 'g');

/**
 * E.164 (`+` and 8–15 digits, single spaces or dashes and one parenthesised area code allowed)
 * and Thai numbers: mobiles 06/08/09 + 8 digits, landlines 02–07 + 7 digits, in their usual groupings.
 */
const PHONE = new RegExp(
  [
    `(?<![0-9\u0E50-\u0E59A-Za-z+])\\+${D}(?:${SEP}?\\(?${D}\\)?){7,14}${AFTER}`,
    `${BEFORE}[0\u0E50][689\u0E56\u0E58\u0E59]${D}${SEP}?${D}{3}${SEP}?${D}{4}${AFTER}`,
    `${BEFORE}[0\u0E50][2\u0E52]${SEP}?${D}{3}${SEP}?${D}{4}${AFTER}`,
    `${BEFORE}[0\u0E50][3-7\u0E53-\u0E57]${D}${SEP}?${D}{3}${SEP}?${D}{3}${AFTER}`,
  ].join('|'),
  'g',
);

function digitsOf(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    if (c >= 48 && c <= 57) out += ch;
    else if (c >= 0x0e50 && c <= 0x0e59) out += String(c - 0x0e50);
  }
  return out;
}

/** The Luhn check every payment card number passes. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** A Thai national ID: 13 digits, the last (11 − Σ dᵢ·(13 − i) mod 11) mod 10. The first digit is never 0. */
export function thaiIdValid(digits: string): boolean {
  if (!/^[1-8]\d{12}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (digits.charCodeAt(i) - 48) * (13 - i);
  return (11 - (sum % 11)) % 10 === digits.charCodeAt(12) - 48;
}

function phoneValid(match: string): boolean {
  const digits = digitsOf(match);
  if (match.startsWith('+')) {
    // At most one parenthesised group, balanced; 8–15 digits (E.164's maximum).
    const open = match.split('(').length - 1;
    const close = match.split(')').length - 1;
    if (open !== close || open > 1 || (open === 1 && !/\(\d+\)/.test(match.replace(/[\u0E50-\u0E59]/g, '0')))) return false;
    return digits.length >= 8 && digits.length <= 15;
  }
  return true;
}

const BUILT_IN: { kind: PiiKind; regex: RegExp; valid?: (match: string) => boolean }[] = [
  { kind: 'email', regex: EMAIL },
  { kind: 'thai_id', regex: THAI_ID, valid: (m) => thaiIdValid(digitsOf(m)) },
  { kind: 'card', regex: CARD, valid: (m) => luhnValid(digitsOf(m)) },
  { kind: 'phone', regex: PHONE, valid: phoneValid },
];

/** An operator pattern compiled once (see `compileRedactionPatterns`). */
export interface CompiledPattern {
  name: string;
  marker: string;
  regex: RE2JS;
}

export type PatternProblem = { index: number; field: 'name' | 'pattern'; message: string };

/**
 * Compiles a workspace's patterns on RE2, or names each one that cannot be used: a bad name, too
 * long, not valid RE2 syntax (backreferences and lookarounds are not), or matching the empty string.
 */
export function compileRedactionPatterns(patterns: readonly RedactionPattern[]): { ok: true; compiled: CompiledPattern[] } | { ok: false; problems: PatternProblem[] } {
  const problems: PatternProblem[] = [];
  const compiled: CompiledPattern[] = [];
  if (patterns.length > MAX_REDACTION_PATTERNS) return { ok: false, problems: [{ index: MAX_REDACTION_PATTERNS, field: 'pattern', message: `at most ${MAX_REDACTION_PATTERNS} patterns` }] };
  patterns.forEach((p, index) => {
    if (!PATTERN_NAME.test(p.name)) problems.push({ index, field: 'name', message: 'a name of lowercase letters, digits and _ (at most 32), starting with a letter' });
    if (p.pattern.length === 0 || p.pattern.length > MAX_PATTERN_CHARS) {
      problems.push({ index, field: 'pattern', message: `a pattern of 1 to ${MAX_PATTERN_CHARS} characters` });
      return;
    }
    let regex: RE2JS;
    try {
      regex = RE2JS.compile(p.pattern);
    } catch (error) {
      problems.push({ index, field: 'pattern', message: `not a supported regular expression (RE2 syntax: no backreferences or lookarounds): ${error instanceof Error ? error.message : String(error)}` });
      return;
    }
    if (regex.matches('')) {
      problems.push({ index, field: 'pattern', message: 'the pattern matches empty text' });
      return;
    }
    compiled.push({ name: p.name, marker: `[${p.name.toUpperCase()}]`, regex });
  });
  return problems.length ? { ok: false, problems } : { ok: true, compiled };
}

export type RedactionCounts = Partial<Record<PiiKind | `custom:${string}`, number>>;

export interface Redacted {
  text: string;
  /** How many of each kind were replaced; empty when the text had none. */
  counts: RedactionCounts;
}

/**
 * Replaces personal data in `text`: built-in kinds first (e-mail, Thai ID, card, phone), then the
 * operator's patterns in order. Markers hold no digits or `@`, so no later pass matches a marker.
 */
export function redactPersonalData(text: string, patterns: readonly CompiledPattern[] = []): Redacted {
  const counts: RedactionCounts = {};
  let out = text;
  for (const { kind, regex, valid } of BUILT_IN) {
    out = out.replace(regex, (match) => {
      if (valid && !valid(match)) return match;
      counts[kind] = (counts[kind] ?? 0) + 1;
      return PII_MARKERS[kind];
    });
  }
  for (const p of patterns) {
    const matcher = p.regex.matcher(out);
    let n = 0;
    let result = '';
    let last = 0;
    while (matcher.find()) {
      const start = matcher.start();
      const end = matcher.end();
      if (end === start) continue;
      result += out.slice(last, start) + p.marker;
      last = end;
      n++;
    }
    if (n > 0) {
      out = result + out.slice(last);
      counts[`custom:${p.name}`] = n;
    }
  }
  return { text: out, counts };
}
