/**
 * A workspace's privacy settings: personal-data redaction (on for every workspace created since
 * it exists), the operator's own patterns, and how long conversations are kept.
 */
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { WorkspaceRecord } from '../ports/store.js';
import { compileRedactionPatterns, MAX_PATTERN_CHARS, MAX_REDACTION_PATTERNS, redactPersonalData, type CompiledPattern, type RedactionPattern } from './pii.js';
import type { WorkspacePrivacy } from './ports/privacy.js';

export type { WorkspacePrivacy };

/** What a workspace created from now on starts with. */
export const NEW_WORKSPACE_PRIVACY: WorkspacePrivacy = { redactPii: true, patterns: [], retentionDays: null };
/** Workspaces created before the setting existed keep behaving as they did until an admin changes it. */
const EARLIER_WORKSPACE_PRIVACY: WorkspacePrivacy = { redactPii: false, patterns: [], retentionDays: null };

/**
 * Retention bounds: at least a week, so the resolution detector (every 15 minutes) and a
 * month's billing always see a conversation before it can go; at most ten years.
 */
export const MIN_RETENTION_DAYS = 7;
export const MAX_RETENTION_DAYS = 3650;

export function privacyOf(workspace: Pick<WorkspaceRecord, 'privacy'>): WorkspacePrivacy {
  return workspace.privacy ?? EARLIER_WORKSPACE_PRIVACY;
}

export const updatePrivacySchema = z
  .strictObject({
    redactPii: z.boolean().optional(),
    patterns: z
      .array(z.strictObject({ name: z.string().max(32), pattern: z.string().max(MAX_PATTERN_CHARS) }))
      .max(MAX_REDACTION_PATTERNS)
      .optional(),
    retentionDays: z.number().int().min(MIN_RETENTION_DAYS).max(MAX_RETENTION_DAYS).nullable().optional(),
  })
  .superRefine((value, ctx) => {
    if (!value.patterns) return;
    const compiled = compileRedactionPatterns(value.patterns);
    if (!compiled.ok) for (const p of compiled.problems) ctx.addIssue({ code: 'custom', path: ['patterns', p.index, p.field], message: p.message });
    const names = value.patterns.map((p) => p.name);
    names.forEach((name, i) => {
      if (names.indexOf(name) !== i) ctx.addIssue({ code: 'custom', path: ['patterns', i, 'name'], message: `the name "${name}" is used twice` });
    });
  });
export type UpdatePrivacyInput = z.input<typeof updatePrivacySchema>;

/** Compiled patterns by their source, so a request never recompiles a workspace's patterns. */
const compiledCache = new LRUCache<string, CompiledPattern[]>({ max: 500 });

function compiledFor(patterns: readonly RedactionPattern[]): CompiledPattern[] {
  if (patterns.length === 0) return [];
  const key = JSON.stringify(patterns);
  let compiled = compiledCache.get(key);
  if (!compiled) {
    const result = compileRedactionPatterns(patterns);
    // Stored patterns were validated when saved; one that no longer compiles is skipped, not fatal.
    compiled = result.ok ? result.compiled : [];
    compiledCache.set(key, compiled);
  }
  return compiled;
}

/** The workspace's redaction as a function of text (the identity when redaction is off). */
export function redactorFor(workspace: Pick<WorkspaceRecord, 'privacy'>): (text: string) => string {
  const privacy = privacyOf(workspace);
  if (!privacy.redactPii) return (text) => text;
  const patterns = compiledFor(privacy.patterns);
  return (text) => redactPersonalData(text, patterns).text;
}
