/**
 * A local stand-in for Cloudflare's API (custom hostnames and purge_cache) speaking the real
 * `{success, errors, messages, result}` envelope, for tests of the adapter and of the service.
 * Tests move hostnames through Cloudflare's states with `setState` and read `purges`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';

export interface FakeCustomHostname {
  id: string;
  hostname: string;
  status: string;
  ssl: { id: string; status: string; method: string; type: string; validation_errors?: { message: string }[] };
  ownership_verification: { type: 'txt'; name: string; value: string };
  verification_errors?: string[];
  created_at: string;
}

export interface FakeCloudflareOptions {
  zoneId: string;
  hostnameToken: string;
  purgeToken: string;
}

export interface FakeCloudflare {
  /** e.g. `http://127.0.0.1:40123/client/v4` */
  apiUrl: string;
  hostnames: Map<string, FakeCustomHostname>;
  /** Every accepted purge_cache body, in order. */
  purges: Record<string, string[]>[];
  /** Every request seen: method, path and the bearer token used. */
  requests: { method: string; path: string; token: string }[];
  /** While set, every request answers 503 with an HTML error page (an outage). */
  outage: boolean;
  setState(id: string, patch: { status?: string; ssl?: string; verificationErrors?: string[] }): void;
  close(): Promise<void>;
}

const send = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const success = (res: ServerResponse, result: unknown, status = 200) => send(res, status, { success: true, errors: [], messages: [], result });
const failure = (res: ServerResponse, status: number, code: number, message: string) =>
  send(res, status, { success: false, errors: [{ code, message }], messages: [], result: null });

async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
}

export async function startFakeCloudflare(options: FakeCloudflareOptions): Promise<FakeCloudflare> {
  const hostnames = new Map<string, FakeCustomHostname>();
  const purges: Record<string, string[]>[] = [];
  const requests: FakeCloudflare['requests'] = [];
  const state = { outage: false };
  const zonePath = `/client/v4/zones/${options.zoneId}`;

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    requests.push({ method: req.method ?? 'GET', path: url.pathname, token });
    if (state.outage) {
      res.writeHead(503, { 'content-type': 'text/html' });
      return res.end('<html><body>503 Service Temporarily Unavailable</body></html>');
    }
    if (!url.pathname.startsWith(zonePath)) return failure(res, 404, 7003, 'Could not route to /zones: perhaps your object identifier is invalid?');
    const rest = url.pathname.slice(zonePath.length);

    if (rest === '/purge_cache' && req.method === 'POST') {
      if (token !== options.purgeToken) return failure(res, 403, 10000, 'Authentication error');
      const body = await readJson(req);
      const keys = body ? Object.keys(body) : [];
      if (!body || keys.length !== 1 || !['files', 'prefixes', 'hosts', 'tags', 'purge_everything'].includes(keys[0]!)) {
        return failure(res, 400, 1012, 'Request must contain one of "purge_everything", "files", "tags", "hosts" or "prefixes"');
      }
      const list = body[keys[0]!] as string[];
      if (list.length > 30) return failure(res, 400, 1015, 'Request must contain at most 30 entries');
      purges.push({ [keys[0]!]: list });
      return success(res, { id: randomUUID().replace(/-/g, '') });
    }

    if (!rest.startsWith('/custom_hostnames')) return failure(res, 404, 7000, 'No route for that URI');
    if (token !== options.hostnameToken) return failure(res, 403, 10000, 'Authentication error');
    const id = decodeURIComponent(rest.slice('/custom_hostnames/'.length));

    if (rest === '/custom_hostnames' && req.method === 'POST') {
      const body = (await readJson(req)) as { hostname?: string; ssl?: { method?: string; type?: string } } | null;
      if (!body?.hostname) return failure(res, 400, 1409, 'hostname is required');
      if ([...hostnames.values()].some((h) => h.hostname === body.hostname)) return failure(res, 409, 1406, 'Duplicate custom hostname found.');
      const created: FakeCustomHostname = {
        id: randomUUID(),
        hostname: body.hostname,
        status: 'pending',
        ssl: { id: randomUUID(), status: 'initializing', method: body.ssl?.method ?? 'http', type: body.ssl?.type ?? 'dv' },
        ownership_verification: { type: 'txt', name: `_cf-custom-hostname.${body.hostname}`, value: randomUUID() },
        created_at: new Date().toISOString(),
      };
      hostnames.set(created.id, created);
      return success(res, created, 201);
    }
    const found = hostnames.get(id);
    if (!found) return failure(res, 404, 1436, 'The custom hostname was not found.');
    if (req.method === 'GET') return success(res, found);
    if (req.method === 'DELETE') {
      hostnames.delete(id);
      return success(res, { id });
    }
    return failure(res, 405, 10405, 'Method not allowed');
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}/client/v4`,
    hostnames,
    purges,
    requests,
    get outage() {
      return state.outage;
    },
    set outage(value: boolean) {
      state.outage = value;
    },
    setState(id, patch) {
      const h = hostnames.get(id);
      if (!h) throw new Error(`no fake custom hostname ${id}`);
      if (patch.status) h.status = patch.status;
      if (patch.ssl) h.ssl.status = patch.ssl;
      if (patch.verificationErrors) h.verification_errors = patch.verificationErrors;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
