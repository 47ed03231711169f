import type { Readable, Writable } from 'node:stream';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Engine, RequestContext } from '@panya/core';
import { createPanyaMcpServer, type PanyaMcpServerOptions } from './server.js';

export interface StdioServerOptions extends PanyaMcpServerOptions {
  /** Default: the process's stdin and stdout (stdout carries the protocol only). */
  stdin?: Readable;
  stdout?: Writable;
}

export interface RunningStdioServer {
  server: McpServer;
  /** Resolves when the host closes stdin or `close()` is called. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves the Panya tools over stdio, for MCP hosts that launch servers as processes. The context
 * is usually the operator's (`engine.access.system(tenant, workspace)`): the host's user owns
 * the database, so there is no key to check.
 */
export async function runStdioServer(engine: Engine, ctx: RequestContext, options: StdioServerOptions = {}): Promise<RunningStdioServer> {
  const stdin = options.stdin ?? process.stdin;
  const server = createPanyaMcpServer(engine, ctx, options);
  const transport = new StdioServerTransport(stdin, options.stdout ?? process.stdout);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  transport.onclose = () => resolveClosed();
  // The transport does not watch for end of input; a host that exits just closes the pipe.
  const onEnd = () => void server.close();
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);
  await server.connect(transport);
  return {
    server,
    closed: closed.then(() => {
      stdin.off('end', onEnd);
      stdin.off('close', onEnd);
    }),
    close: () => server.close(),
  };
}
