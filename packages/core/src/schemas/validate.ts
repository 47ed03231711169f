import { err, ok, type Result } from 'neverthrow';
import type { z } from 'zod';
import { MAX_JSON_DEPTH } from '../bounds.js';
import { errors, type FieldIssue, type PanyaError } from '../errors.js';

/**
 * Whether a JSON value nests objects and arrays more than `limit` deep. Iterative, so a value
 * 20,000 levels deep costs a walk, never the call stack that recursive code (schemas, canonical
 * forms, serializers) would exhaust on it.
 */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (depth > limit) return true;
    const children = Array.isArray(current) ? current : Object.values(current as object);
    for (const child of children) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** The problem for a value nested past `MAX_JSON_DEPTH`, where the JSON reader or a schema meets one. */
export function tooDeep(what = 'request body'): PanyaError {
  return errors.invalid(`Invalid ${what}: JSON nested more than ${MAX_JSON_DEPTH} levels deep.`, [{ path: '', message: `nested more than ${MAX_JSON_DEPTH} levels (MAX_JSON_DEPTH)` }]);
}

/** `['create', 3, 'title']` → `create[3].title` */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

export function toFieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
}

/** Validates untrusted input against a core schema; the only way services accept input. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = 'request body'): Result<z.infer<S>, PanyaError> {
  // Schemas walk values recursively: depth is checked first, whatever adapter the input came through.
  if (nestedDeeperThan(input, MAX_JSON_DEPTH)) return err(tooDeep(what));
  const parsed = schema.safeParse(input);
  if (parsed.success) return ok(parsed.data);
  const issues = toFieldIssues(parsed.error);
  const where = issues.map((i) => i.path || '(root)').join(', ');
  return err(errors.invalid(`Invalid ${what}: ${where}.`, issues));
}
