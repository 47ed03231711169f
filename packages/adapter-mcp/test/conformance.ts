import { execFile } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

export const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
export const CONFORMANCE_BIN = fileURLToPath(new URL('../node_modules/.bin/conformance', import.meta.url));

/**
 * A local proxy that adds `Authorization: Bearer <key>` to every request: the conformance
 * runner cannot send headers, and the endpoint must be tested as mounted, with its auth.
 * The `Host` header passes through untouched, for the DNS-rebinding scenario.
 */
export async function authProxy(target: string, key: string): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const forwarded = request(
      { host: upstream.hostname, port: upstream.port, path: upstream.pathname, method: req.method, headers: { ...req.headers, authorization: `Bearer ${key}` } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.writeHead(502).end());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Runs `conformance server`; resolves with its exit code and output (never rejects on failures). */
export function runConformance(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(CONFORMANCE_BIN, ['server', ...args], { cwd: PACKAGE_DIR, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, output: `${stdout}\n${stderr}` });
    });
  });
}
