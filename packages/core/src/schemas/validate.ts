import { err, ok, type Result } from 'neverthrow';
import type { z } from 'zod';
import { errors, type FieldIssue, type PanyaError } from '../errors.js';

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
  const parsed = schema.safeParse(input);
  if (parsed.success) return ok(parsed.data);
  const issues = toFieldIssues(parsed.error);
  const where = issues.map((i) => i.path || '(root)').join(', ');
  return err(errors.invalid(`Invalid ${what}: ${where}.`, issues));
}
