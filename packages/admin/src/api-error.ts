/** A refused or failed API call, recognised by its `Symbol.for` marker (`isApiError`). */
export interface Problem {
  status: number;
  title?: string;
  detail?: string;
  code?: string;
  errors?: { path: string; message: string }[];
}

const API_ERROR = Symbol.for('panya.error.admin-api');
const marked = (value: unknown, marker: symbol) => typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;

export class ApiError extends Error {
  readonly [API_ERROR] = true;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return marked(value, API_ERROR);
  }
  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.title ?? `HTTP ${problem.status}`);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return marked(error, API_ERROR);
}
