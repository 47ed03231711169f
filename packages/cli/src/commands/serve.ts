import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Engine, Logger } from '@panya/core';
import { createPanyaApp, type PanyaAppOptions } from '@panya/adapter-express';

export interface RunningServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Starts the HTTP server; resolves once it listens. `close()` drains connections, then the engine. */
export async function startServer(engine: Engine, opts: { port: number; host: string; logger: Logger; app?: Omit<PanyaAppOptions, 'logger'> }): Promise<RunningServer> {
  const app = createPanyaApp(engine, { ...opts.app, logger: opts.logger });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(opts.port, opts.host, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  const url = `http://${host}:${port}`;
  return {
    server,
    url,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await engine.close();
    },
  };
}
