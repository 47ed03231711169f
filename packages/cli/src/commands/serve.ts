import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import type { Engine, Logger } from '@panya/core';
import { HEADERS_TIMEOUT_MS, REQUEST_BODY_TIMEOUT_MS, SHUTDOWN_GRACE_MS } from '@panya/core';
import { createPanyaApp, requestListener, type PanyaAppOptions } from '@panya/adapter-express';
import { closeConversionPool } from '@panya/convert';
import { CommandError } from './tenant.js';

export interface RunningServer {
  server: Server;
  url: string;
  /** Stops accepting, lets open requests finish for up to the grace period, closes what is left, then the engine. */
  close(): Promise<void>;
}

export interface ServerOptions {
  port: number;
  host: string;
  logger: Logger;
  app?: Omit<PanyaAppOptions, 'logger'>;
  /** How long open requests may run on after `close()` (default `SHUTDOWN_GRACE_MS`). */
  shutdownGraceMs?: number;
}

/** Why a port cannot be listened on, said so that the fix is clear. */
function listenRefusal(error: NodeJS.ErrnoException, port: number, host: string): Error {
  if (error.code === 'EADDRINUSE') return new CommandError(`Port ${port} is in use on ${host}; pass --port or set PORT.`);
  if (error.code === 'EACCES') return new CommandError(`Not allowed to listen on port ${port} of ${host}; pass --port or set PORT (ports below 1024 need privileges).`);
  return error;
}

/** Fails as `startServer` would if the port cannot be listened on (checked before starting workers). */
export async function checkPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error: NodeJS.ErrnoException) => reject(listenRefusal(error, port, host)));
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/** A port free on `host` now (the system's choice), for a server whose address must be known before it listens. */
export async function pickFreePort(host: string): Promise<number> {
  const probe = createNetServer();
  return new Promise<number>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * On loopback the help center answers at `help.localhost` (browsers and curl resolve `*.localhost`
 * to this machine) unless `PANYA_HELP_HOST` says where. Its origin carries the real port, so port 0
 * is replaced by a free port chosen now.
 */
export async function withLocalHelpHost(env: NodeJS.ProcessEnv, listen: { port: number; host: string }): Promise<NodeJS.ProcessEnv> {
  if (env.PANYA_HELP_HOST || !LOOPBACK.has(listen.host)) return env;
  if (listen.port === 0) listen.port = await pickFreePort(listen.host);
  return { ...env, PANYA_HELP_HOST: `http://help.localhost:${listen.port}` };
}

/** Starts the HTTP server; resolves once it listens. */
export async function startServer(engine: Engine, opts: ServerOptions): Promise<RunningServer> {
  const app = createPanyaApp(engine, { ...opts.app, logger: opts.logger });
  const bodyTimeout = opts.app?.requestBodyTimeoutMs ?? REQUEST_BODY_TIMEOUT_MS;
  // Node's own deadlines back the app's 408: headers must arrive in time, and a request that is
  // still not received well after the app's deadline is cut by the server itself.
  const server = createServer({ headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: bodyTimeout * 2, connectionsCheckingInterval: 1_000 }, requestListener(app));
  await new Promise<void>((resolve, reject) => {
    const refuse = (error: NodeJS.ErrnoException) => reject(listenRefusal(error, opts.port, opts.host));
    server.once('error', refuse);
    server.listen(opts.port, opts.host, () => (server.off('error', refuse), resolve()));
  }).catch(async (error: unknown) => {
    await engine.close();
    throw error;
  });
  const { port } = server.address() as AddressInfo;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  const url = `http://${host}:${port}`;
  const grace = opts.shutdownGraceMs ?? SHUTDOWN_GRACE_MS;
  let closing: Promise<void> | null = null;
  return {
    server,
    url,
    close: () =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const deadline = setTimeout(() => {
          opts.logger.info('shutdown deadline reached: closing open connections', { graceMs: grace });
          server.closeAllConnections();
        }, grace);
        await closed;
        clearTimeout(deadline);
        await closeConversionPool();
        await engine.close();
      })()),
  };
}
