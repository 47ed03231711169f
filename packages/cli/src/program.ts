import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import { loadEnv, MAX_WORKERS } from './config.js';
import { demoCommand, demoKeyFile } from './commands/demo.js';
import { importDocsCommand } from './commands/docs.js';
import { connectorSecretCommand, tenantOriginsCommand } from './commands/settings.js';
import { checkPortFree, startServer, withLocalHelpHost } from './commands/serve.js';
import { serveBanner } from './banner.js';
import { createKeyCommand, createTenantCommand, eraseTenantCommand } from './commands/tenant.js';
import {
  keyListCommand,
  keyRevokeCommand,
  tenantListCommand,
  tenantUpdateCommand,
  workspaceCreateCommand,
  workspaceDeleteCommand,
  workspaceListCommand,
  workspaceRestoreCommand,
  workspaceUpdateCommand,
} from './commands/workspace.js';
import { auditExportCommand, auditVerifyCommand } from './commands/audit.js';
import { basename, resolve } from 'node:path';
import { defaultSearchWeights, parseHelpHost, PUBLIC_BUDGET_QUOTA_KEYS, QUOTA_KEYS, SHUTDOWN_GRACE_MS, type Engine } from '@panya/core';
import type { EnvConfig } from './config.js';
import { evalCommand, parseWeights } from './commands/eval.js';
import { workspaceEvalCommand } from './commands/workspace-eval.js';
import { reindexCommand } from './commands/reindex.js';
import { createUserCommand } from './commands/user.js';
import { startScheduler } from './scheduler.js';
import { startIngestProcesses } from './ingest-processes.js';
import { availableParallelism, hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { reportListening, startCluster, workerSlot } from './cluster.js';
import { CommandError } from './commands/tenant.js';
import { createLogger, edgeFromEnv, openEngine, paymentsFromEnv, processIo, type Io } from './runtime.js';
import { createPanyaFromEnv, panyaAppOptionsFromEnv } from './from-env.js';
import { runStdioServer } from '@panya/adapter-mcp';

/** This package's version, read once from its package.json (one directory above src/ and dist/). */
const CLI_VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

const port = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new InvalidArgumentError('must be a port number (0-65535)');
  return n;
};

const workerCount = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_WORKERS) throw new InvalidArgumentError(`must be a whole number from 1 to ${MAX_WORKERS}`);
  return n;
};

type DemoStarted = Awaited<ReturnType<typeof demoCommand>>;

interface ServeOptions {
  db?: string;
  port?: number;
  host?: string;
  workers?: number;
  demo?: boolean;
  cron?: boolean;
  embedder?: EnvConfig['PANYA_EMBEDDER'];
}

/**
 * How many processes serve: `--workers`, else `PANYA_WORKERS`, else one per core. An in-memory
 * database lives in one process, so it is served by one (asking for more is a mistake).
 */
function serveWorkers(flag: number | undefined, fromEnv: number | undefined, db: string): number {
  const asked = flag ?? fromEnv;
  if (db !== ':memory:') return asked ?? availableParallelism();
  if (asked !== undefined && asked > 1) throw new CommandError(`${flag !== undefined ? '--workers' : 'PANYA_WORKERS'} ${asked}: an in-memory database (:memory:) cannot be shared between processes; use 1 or a database file.`);
  return 1;
}

/** SIGINT/SIGTERM run `stop`, then exit; past the grace period plus a margin, exit regardless (leases let any node pick up what was interrupted). */
function onStopSignal(stop: () => Promise<void>): void {
  const handler = async () => {
    setTimeout(() => process.exit(0), SHUTDOWN_GRACE_MS + 5_000).unref();
    await stop();
    process.exit(0);
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}

/** The `panya` command line. `io` is injectable so commands run in-process in tests. */
export function buildProgram(io: Io = processIo, env: NodeJS.ProcessEnv = process.env): Command {
  const rawEnv = env;
  const config = () => loadEnv(env);
  const dbOption = (cmd: Command) => cmd.option('--db <path>', 'SQLite file or postgres:// URL (env PANYA_DB, default ./data/panya.db)');
  const embedderChoice = (value: string) => {
    if (!['auto', 'hash', 'local', 'openai'].includes(value)) throw new InvalidArgumentError('must be auto, hash, local or openai');
    return value as EnvConfig['PANYA_EMBEDDER'];
  };
  /** Opens the engine for one command; `embeds` loads the configured embedder (else the cheap built-in one). */
  const withEngine = async <T>(db: string | undefined, fn: (engine: Engine) => Promise<T>, embeds?: { embedder?: EnvConfig['PANYA_EMBEDDER'] }) => {
    const env = config();
    const logger = createLogger(env.PANYA_LOG_LEVEL === 'info' ? 'warn' : env.PANYA_LOG_LEVEL);
    const engine = await openEngine({ db: db ?? env.PANYA_DB, logger, notice: io.err, ...(embeds ? { env, embedder: embeds.embedder ?? env.PANYA_EMBEDDER } : {}) });
    try {
      return await fn(engine);
    } finally {
      await engine.close();
    }
  };

  const printBanner = (url: string, demo: DemoStarted | null, helpHost: string | undefined, workers?: number) => {
    for (const line of serveBanner({ url, ...(workers ? { workers } : {}), helpOrigin: helpHost ? parseHelpHost(helpHost).origin : null, demo })) io.out(line);
  };

  const program = new Command('panya').description('Panya knowledge-base engine').version(CLI_VERSION, '-V, --version').showHelpAfterError().exitOverride();
  program.configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });

  dbOption(program.command('serve').description('start the HTTP API'))
    .option('--port <port>', 'port to listen on (env PORT, default 3000)', port)
    .option('--host <host>', 'interface to bind (env HOST, default 127.0.0.1)')
    .option('--workers <n>', `processes serving HTTP on the port (env PANYA_WORKERS, default: the number of cores, ${availableParallelism()} here; 1: no cluster)`, workerCount)
    .option('--demo', 'create or refresh the demo tenant first and print its API key')
    .option('--embedder <name>', 'auto | hash | local | openai (env PANYA_EMBEDDER)', embedderChoice)
    .option('--cron', 'run the scheduled jobs in this process (UTC schedules; one node runs each firing)')
    .action(async (opts: ServeOptions) => {
      const env = config();
      const logger = createLogger(env.PANYA_LOG_LEVEL);
      const edge = edgeFromEnv(rawEnv, logger);
      const payments = paymentsFromEnv(rawEnv);
      const db = opts.db ?? env.PANYA_DB;
      const embedder = opts.embedder ?? env.PANYA_EMBEDDER;
      const listen = { port: opts.port ?? env.PORT ?? 3000, host: opts.host ?? env.HOST };
      const slot = workerSlot(rawEnv);
      const serveEnv = slot === null ? await withLocalHelpHost(rawEnv, listen) : rawEnv;
      const workers = slot === null ? serveWorkers(opts.workers, env.PANYA_WORKERS, db) : 1;
      const node = env.PANYA_NODE_ID ?? hostname();
      // Leases name this node (stable across restarts; a cluster worker by its slot) and this run:
      // a restart reclaims the last run's at once. `a/w1` is within node `a`, so one process
      // started after a cluster reclaims what all its workers held.
      const holder = { node: slot === null ? node : `${node}/w${slot}`, incarnation: `${process.pid}-${Date.now().toString(36)}` };
      // A demo runs on one machine with API keys: sessions of the admin app do not concern it.
      if (slot === null && !env.PANYA_SESSION_SECRET && !opts.demo) logger.warn('PANYA_SESSION_SECRET is not set: sessions end when this process restarts and are not shared between nodes');

      if (workers > 1) {
        // The primary prepares the database once (schema, the last run's leases, the demo), then
        // its workers serve; it prints what a single process would.
        const engine = await openEngine({ db, logger, notice: io.err, ingestHolder: holder, ...(opts.demo ? { env, embedder } : {}) });
        let demo: DemoStarted | null = null;
        try {
          await engine.ingest.reclaim();
          await engine.jobs.reclaim();
          if (opts.demo) {
            await engine.ingest.ensureIndexInfo();
            const keyFile = demoKeyFile(db);
            demo = await demoCommand(engine, { out: () => {}, err: io.err }, { ...(keyFile ? { keyFile } : {}), ...(env.PANYA_DEMO_KEY ? { key: env.PANYA_DEMO_KEY } : {}) });
            if (demo.articlesAdded > 0) await engine.ingest.drain();
          }
        } finally {
          await engine.close();
        }
        await checkPortFree(listen.port, listen.host);
        const running = await startCluster({
          workers,
          exec: fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? './bin.ts' : './bin.js', import.meta.url)),
          args: ['serve', '--db', db, '--port', String(listen.port), '--host', listen.host, '--embedder', embedder, ...(opts.cron ? ['--cron'] : [])],
          // Workers must accept each other's session cookies: without a configured secret, they share one for this run.
          env: { ...serveEnv, PANYA_SESSION_SECRET: env.PANYA_SESSION_SECRET ?? randomBytes(32).toString('hex') },
          logger,
          stopDeadlineMs: SHUTDOWN_GRACE_MS + 5_000,
        });
        printBanner(running.url, demo, serveEnv.PANYA_HELP_HOST, workers);
        onStopSignal(() => running.stop());
        return;
      }

      // Indexing runs in background processes with their own connections (an in-memory database cannot be shared).
      const threads = db === ':memory:' ? 0 : env.PANYA_INGEST_THREADS;
      const ingestRunner = threads > 0 ? startIngestProcesses({ db, embedder, logLevel: env.PANYA_LOG_LEVEL, holder, roundsPerFile: threads }, threads, logger) : undefined;
      const engine = await createPanyaFromEnv(serveEnv, { db, logger, notice: slot === null ? io.err : () => {}, embedder, edge, payments, ingestHolder: holder, ...(ingestRunner ? { ingestRunner } : {}) });
      const keyFile = demoKeyFile(db);
      const demoKeyOptions = { ...(keyFile ? { keyFile } : {}), ...(env.PANYA_DEMO_KEY ? { key: env.PANYA_DEMO_KEY } : {}) };
      const demo = opts.demo && slot === null ? await demoCommand(engine, { out: () => {}, err: io.err }, demoKeyOptions) : null;
      // The printed key must find the demo articles at once: index new ones before listening.
      if (demo && demo.articlesAdded > 0) await engine.ingest.drain();
      await engine.start();
      const running = await startServer(engine, {
        ...listen,
        logger,
        app: {
          // A server on loopback only answers MCP requests addressed to loopback (DNS-rebinding protection).
          ...(LOOPBACK.has(listen.host) ? { mcp: { allowedHosts: [...LOOPBACK] } } : {}),
          ...panyaAppOptionsFromEnv(serveEnv),
          // A worker's /metrics answers for the whole cluster (the primary sums the workers).
          ...(slot !== null ? { clusterMetrics: true } : {}),
        },
      });
      // Each process builds its in-memory search indexes now, in slices beside the requests, rather than on first searches.
      const warming = new AbortController();
      void engine.search.warm({ signal: warming.signal }).then(
        (workspaces) => logger.info('search indexes built', { workspaces }),
        (error: unknown) => warming.signal.aborted || logger.warn('search index warm-up stopped', { error: error instanceof Error ? error.message : String(error) }),
      );
      // In a cluster, the first worker runs the schedule (job leases would keep the others idle anyway).
      const scheduler = opts.cron && (slot ?? 1) === 1 ? startScheduler(engine, { logger }) : null;
      if (slot !== null) reportListening(running.url);
      else printBanner(running.url, demo, serveEnv.PANYA_HELP_HOST);
      onStopSignal(async () => {
        warming.abort();
        scheduler?.stop();
        await running.close();
      });
    });

  const tenant = program.command('tenant').description('manage tenants');
  dbOption(tenant.command('create').description('create a tenant, its default workspace and an owner API key'))
    .requiredOption('--slug <slug>', 'URL identifier, e.g. acme')
    .option('--plan <plan>', 'free | team | business | growth | enterprise', 'free')
    .option('--name <name>', 'brand name of the default workspace (default: Default)')
    .option('--brand-accent <colour>', 'brand accent colour of the default workspace, #rrggbb')
    .option('--json', 'print JSON')
    .action((opts) => withEngine(opts.db, (engine) => createTenantCommand(engine, io, opts)));
  dbOption(tenant.command('update').description("change a tenant's plan, quota overrides (quotas_json) or grandfathering window"))
    .requiredOption('--slug <slug>', 'tenant slug')
    .option('--plan <plan>', 'free | team | business | growth | enterprise')
    .option('--quota <key=value...>', `override a plan limit: ${[...QUOTA_KEYS, ...Object.keys(PUBLIC_BUDGET_QUOTA_KEYS)].join(', ')} (or queriesPerKeyPerHour); value a number, unlimited or default`)
    .option('--grandfather-until <date>', 'keep the legacy plan\'s rate limits, without hard cap or overage, through this date (YYYY-MM-DD)')
    .option('--legacy-plan <plan>', 'the plan a grandfathered tenant keeps')
    .option('--end-grandfathering', 'remove the grandfathering window')
    .option('--cross-workspace-visitor-linking <on|off>', 'Enterprise flag, stored only: linking is not implemented')
    .option('--json', 'print JSON')
    .action((opts) => withEngine(opts.db, (engine) => tenantUpdateCommand(engine, io, opts)));
  dbOption(tenant.command('erase').description('erase a tenant and all its data for good; its help-center URLs answer 410 Gone'))
    .argument('<slug>', 'tenant slug')
    .requiredOption('--confirm <slug>', 'the slug again: erasure cannot be undone')
    .option('--json', 'print JSON')
    .action((slug: string, opts) => withEngine(opts.db, (engine) => eraseTenantCommand(engine, io, { slug, ...opts })));
  dbOption(tenant.command('list').description('list tenants with their plans and quota overrides'))
    .option('--json', 'print JSON')
    .action((opts) => withEngine(opts.db, (engine) => tenantListCommand(engine, io, opts)));

  dbOption(tenant.command('origins').description("show or replace the tenant's allowed browser origins (CORS, publishable keys)"))
    .requiredOption('--slug <slug>', 'tenant slug')
    .option('--set <origins>', 'comma-separated origins, e.g. https://help.example.com (empty: none)')
    .option('--json', 'print JSON')
    .action((opts) => withEngine(opts.db, (engine) => tenantOriginsCommand(engine, io, opts)));
  dbOption(tenant.command('connector-secret').description('issue a new signing secret for the connector webhook (printed once)'))
    .requiredOption('--slug <slug>', 'tenant slug')
    .option('--json', 'print JSON')
    .action((opts) => withEngine(opts.db, (engine) => connectorSecretCommand(engine, io, opts)));

  const workspace = program.command('workspace').description("manage a tenant's workspaces (brands)");
  dbOption(workspace.command('create').description('create a workspace within the plan cap'))
    .requiredOption('--tenant <slug>', 'tenant slug')
    .requiredOption('--slug <slug>', 'workspace slug, addressed as /c/{tenant}/_w/{slug}/api')
    .option('--name <name>', 'display name (default: the slug)')
    .option('--brand-accent <colour>', 'brand accent colour, #rrggbb')
    .option('--json', 'print JSON')
    .action((opts) => withEngine(opts.db, (engine) => workspaceCreateCommand(engine, io, opts)));
  dbOption(workspace.command('update').alias('rename').description("change a workspace's brand: its display name and accent colour"))
    .requiredOption('--tenant <slug>', 'tenant slug')
    .option('--slug <slug>', 'workspace slug', 'default')
    .option('--name <name>', 'display name shown by the help center, widget and admin app')
    .option('--brand-accent <colour>', 'accent colour, #rrggbb (none: remove it)')
    .option('--json', 'print JSON')
    .action((opts) => withEngine(opts.db, (engine) => workspaceUpdateCommand(engine, io, opts)));
  dbOption(workspace.command('list').description('list workspaces, soft-deleted ones with their recovery countdown'))
    .requiredOption('--tenant <slug>', 'tenant slug')
    .option('--json', 'print JSON')
    .action((opts) => withEngine(opts.db, (engine) => workspaceListCommand(engine, io, opts)));
  dbOption(workspace.command('delete').description('soft-delete a workspace (recoverable for 30 days)'))
    .requiredOption('--tenant <slug>', 'tenant slug')
    .requiredOption('--slug <slug>', 'workspace slug')
    .option('--json', 'print JSON')
    .action((opts) => withEngine(opts.db, (engine) => workspaceDeleteCommand(engine, io, opts)));
  dbOption(workspace.command('restore').description('restore a soft-deleted workspace within its 30 days'))
    .requiredOption('--tenant <slug>', 'tenant slug')
    .requiredOption('--slug <slug>', 'workspace slug')
    .option('--json', 'print JSON')
    .action((opts) => withEngine(opts.db, (engine) => workspaceRestoreCommand(engine, io, opts)));

  const audit = program.command('audit').description("a tenant's audit log: every change to what the bot can say or who can act");
  dbOption(audit.command('verify').description('check the hash chain; a broken chain fails naming the first entry that does not fit'))
    .requiredOption('--tenant <slug>', 'tenant slug')
    .option('--json', 'print JSON')
    .action((opts) => withEngine(opts.db, (engine) => auditVerifyCommand(engine, io, opts)));
  dbOption(audit.command('export').description('print the log oldest first as JSON lines'))
    .requiredOption('--tenant <slug>', 'tenant slug')
    .action((opts) => withEngine(opts.db, (engine) => auditExportCommand(engine, io, opts)));

  const key = program.command('key').description('manage API keys');
  dbOption(key.command('create').description('create an API key'))
    .requiredOption('--tenant <slug>', 'tenant slug')
    .option('--workspace <slug>', 'bind the key to one workspace')
    .requiredOption('--scopes <list>', 'comma-separated: read,write,mcp,admin')
    .option('--name <name>', 'a label for the key')
    .option('--publishable', 'a browser key (svc_pub_…): scopes read, one --workspace, allowed origins only')
    .option('--help-center', 'with --publishable: reads only documents published on the help center (the chat widget links its citations to them)')
    .option('--json', 'print JSON')
    .action((opts) => withEngine(opts.db, (engine) => createKeyCommand(engine, io, opts)));
  dbOption(key.command('list').description("list a tenant's API keys (prefixes only; secrets are never stored)"))
    .requiredOption('--tenant <slug>', 'tenant slug')
    .option('--json', 'print JSON')
    .action((opts) => withEngine(opts.db, (engine) => keyListCommand(engine, io, opts)));
  dbOption(key.command('revoke').description('revoke an API key'))
    .requiredOption('--tenant <slug>', 'tenant slug')
    .requiredOption('--id <id>', 'key id (key_…), from panya key list')
    .option('--json', 'print JSON')
    .action((opts) => withEngine(opts.db, (engine) => keyRevokeCommand(engine, io, opts)));

  const user = program.command('user').description('manage users of the admin app');
  dbOption(user.command('create').description('create a user (or reuse one by e-mail) with a membership'))
    .requiredOption('--email <email>', 'sign-in e-mail')
    .option('--password <password>', 'at least 10 characters (default: env PANYA_USER_PASSWORD, which keeps it out of the process list)')
    .requiredOption('--tenant <slug>', 'tenant slug')
    .option('--workspace <slug>', 'limit the membership to one workspace (default: tenant-wide)')
    .option('--role <role>', 'owner | admin | editor | viewer', 'owner')
    .option('--json', 'print JSON')
    .action(async (opts) => {
      const password = opts.password ?? config().PANYA_USER_PASSWORD;
      if (!password) throw new CommandError('Pass --password or set PANYA_USER_PASSWORD.');
      await withEngine(opts.db, (engine) => createUserCommand(engine, io, { ...opts, password }));
    });

  const docs = program.command('docs').description('manage documents');
  dbOption(docs.command('import').description('sync a directory of .md, .txt and .html files into a workspace (the relative path is each document\'s external id)'))
    .argument('<dir>', 'directory of .md, .markdown, .txt, .html files')
    .requiredOption('--tenant <slug>', 'tenant slug')
    .option('--workspace <slug>', 'workspace slug (default: the default workspace)')
    .option('--prune', 'delete the workspace\'s documents whose external id no file has any more')
    .option('--embedder <name>', 'auto | hash | local | openai (env PANYA_EMBEDDER)', embedderChoice)
    .action(async (dir: string, opts) => {
      await withEngine(opts.db, (engine) => importDocsCommand(engine, io, dir, { ...opts, tty: Boolean(process.stderr.isTTY) }), opts);
    });

  dbOption(program.command('demo').description('create or refresh the demo tenant with sample articles; prints its API key'))
    .option('--json', 'print JSON')
    .option('--embedder <name>', 'auto | hash | local | openai (env PANYA_EMBEDDER)', embedderChoice)
    .action(async (opts) => {
      await withEngine(
        opts.db,
        async (engine) => {
          const env = config();
          const keyFile = demoKeyFile(opts.db ?? env.PANYA_DB);
          await demoCommand(engine, io, { ...opts, ...(keyFile ? { keyFile } : {}), ...(env.PANYA_DEMO_KEY ? { key: env.PANYA_DEMO_KEY } : {}) });
          await engine.ingest.drain();
        },
        opts,
      );
    });

  dbOption(program.command('reindex').description('re-index documents (e.g. after switching embedders)'))
    .option('--all', 're-embed every document of every tenant beside the live index, then swap (search keeps answering)')
    .option('--tenant <slug>', 're-index one tenant')
    .option('--embedder <name>', 'auto | hash | local | openai (env PANYA_EMBEDDER)', embedderChoice)
    .action(async (opts: { db?: string; all?: boolean; tenant?: string; embedder?: EnvConfig['PANYA_EMBEDDER'] }) => {
      if (!opts.all === !opts.tenant) throw new CommandError('Pass exactly one of --all or --tenant <slug>.');
      await withEngine(opts.db, (engine) => reindexCommand(engine, io, { ...opts, tty: Boolean(process.stderr.isTTY) }), opts);
    });

  dbOption(program.command('mcp').description('serve the MCP tools over stdio for one tenant (for MCP hosts that launch servers)'))
    .requiredOption('--tenant <slug>', 'tenant slug')
    .option('--workspace <slug>', 'workspace slug (default: the default workspace)')
    .option('--embedder <name>', 'auto | hash | local | openai (env PANYA_EMBEDDER)', embedderChoice)
    .action(async (opts: { db?: string; tenant: string; workspace?: string; embedder?: EnvConfig['PANYA_EMBEDDER'] }) => {
      // stdout carries the protocol: messages go to stderr only.
      await withEngine(
        opts.db,
        async (engine) => {
          const ctx = await engine.access.system(opts.tenant, opts.workspace);
          if (ctx.isErr()) throw new CommandError(ctx.error.message);
          const running = await runStdioServer(engine, ctx.value);
          io.err(`Panya MCP server on stdio for tenant "${opts.tenant}" (workspace "${ctx.value.workspace.slug}")`);
          await running.closed;
        },
        opts,
      );
    });

  dbOption(program.command('eval'))
    .description("measure retrieval quality: a workspace's evaluation set (--workspace), or a BEIR-format folder (corpus.jsonl, queries.jsonl, qrels/test.tsv or qrels.tsv)")
    .argument('[dir]', 'BEIR dataset folder (without --workspace)')
    .option('--workspace <slug>', "run this workspace's evaluation set against the database (--db) and store the run")
    .option('--tenant <slug>', 'the tenant of --workspace')
    .option('--set <id>', "the evaluation set (default: the workspace's newest)")
    .option('--no-citations', 'score retrieval only (no answers generated)')
    .option('--fail-below <list>', 'exit non-zero below any of these, e.g. hitAt1=0.8,mrr=0.7 (hitAt1, hitAt5, mrr, ndcgAt10, citationAccuracy)')
    .option('--split <split>', 'test | train', 'test')
    .option('--embedder <name>', 'auto | hash | local | openai (default hash)', embedderChoice)
    .option('--weights <list>', 'hybrid RRF weights, e.g. lexical=1,semantic=0.05,trigram=0.5')
    .option('--json', 'print JSON')
    .action(async (dir: string | undefined, opts: { db?: string; workspace?: string; tenant?: string; set?: string; citations: boolean; failBelow?: string; split: string; embedder?: EnvConfig['PANYA_EMBEDDER']; json?: boolean; weights?: string }) => {
      if (opts.workspace) {
        if (dir) throw new CommandError('Give either a dataset folder or --workspace, not both.');
        if (!opts.tenant) throw new CommandError('--workspace needs --tenant <slug>.');
        const { workspace, tenant } = opts;
        await withEngine(opts.db, async (engine) => {
          await workspaceEvalCommand(engine, io, {
            tenant,
            workspace,
            citations: opts.citations,
            ...(opts.set ? { set: opts.set } : {}),
            ...(opts.weights ? { weights: parseWeights(opts.weights, defaultSearchWeights(engine.embedder)) } : {}),
            ...(opts.failBelow ? { failBelow: opts.failBelow } : {}),
            ...(opts.json ? { json: true } : {}),
          });
        });
        return;
      }
      if (!dir) throw new CommandError('Give a BEIR dataset folder, or --workspace <slug> --tenant <slug>.');
      if (opts.failBelow) throw new CommandError('--fail-below applies to --workspace runs.');
      if (opts.split !== 'test' && opts.split !== 'train') throw new CommandError('--split must be test or train.');
      await withEngine(':memory:', (engine) => evalCommand(engine, io, dir, { split: opts.split as 'test' | 'train', name: basename(resolve(dir)), tty: Boolean(process.stderr.isTTY), ...(opts.json ? { json: true } : {}), ...(opts.weights ? { weights: opts.weights } : {}) }), { embedder: opts.embedder ?? 'hash' });
    });

  return program;
}
