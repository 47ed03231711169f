/*
 * Calls the Panya API from the admin app: same origin, the session cookie, and the
 * X-Requested-With header every cookie-authenticated write needs (CSRF defence).
 */

import { ApiError, type Problem } from './api-error.js';

export { ApiError, isApiError, type Problem } from './api-error.js';

const HEADERS = { 'X-Requested-With': 'panya-admin', Accept: 'application/json' };

async function problemOf(res: Response): Promise<ApiError> {
  const body = (await res.json().catch(() => ({}))) as Partial<Problem>;
  return new ApiError({ ...body, status: res.status });
}

export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? HEADERS : { ...HEADERS, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw await problemOf(res);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/** Multipart upload with progress (fetch cannot report upload progress; XMLHttpRequest can). */
export function upload(path: string, form: FormData, onProgress: (fraction: number) => void): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    for (const [name, value] of Object.entries(HEADERS)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      let body: unknown = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON */
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else reject(new ApiError({ ...(body as object), status: xhr.status }));
    };
    xhr.onerror = () => reject(new ApiError({ status: 0, detail: 'The server could not be reached.' }));
    xhr.send(form);
  });
}

/** The API root of a tenant's workspace, as the session addresses it. */
export function apiBase(tenant: string, workspace: string | null): string {
  return workspace && workspace !== 'default' ? `/c/${tenant}/_w/${workspace}/api` : `/c/${tenant}/api`;
}
