import { hasMarker, parseHelpHost } from '@panya/core';
import { parseTrustProxy } from '@panya/adapter-express';
import { z } from 'zod';

/** The most `panya serve --workers` (or `PANYA_WORKERS`) accepts. */
export const MAX_WORKERS = 64;

/** api.openai.com needs a key; a compatible server of one's own (`PANYA_OPENAI_BASE_URL`) may not. */
export function openAIKeyOptional(env: { PANYA_OPENAI_API_KEY?: string | undefined; PANYA_OPENAI_BASE_URL?: string | undefined }): boolean {
  return Boolean(env.PANYA_OPENAI_API_KEY || env.PANYA_OPENAI_BASE_URL);
}

export const OPENAI_KEY_NEEDED = (setting: string) =>
  `required by ${setting}: set your OpenAI API key, or set PANYA_OPENAI_BASE_URL to an OpenAI-compatible server that needs none`;

/** Environment configuration, validated once; a bad value stops the CLI with a clear message. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  HOST: z.string().min(1).default('127.0.0.1'),
  PANYA_DB: z.string().min(1).default('./data/panya.db'),
  PANYA_LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Bearer secret for `/api/cron/*`. */
  PANYA_CRON_SECRET: z.string().min(16, 'use at least 16 characters').optional(),
  /** Signs session cookies; the same on every node. */
  PANYA_SESSION_SECRET: z.string().min(16, 'use at least 16 characters').optional(),
  /** Public address of the service; https makes session cookies Secure. */
  PANYA_BASE_URL: z.url().optional(),
  /** Host of the public help centers (`/{tenantSlug}/…`): a hostname, or an origin such as http://help.localhost:3000. */
  PANYA_HELP_HOST: z
    .string()
    .min(1)
    .optional()
    .superRefine((value, ctx) => {
      if (value === undefined) return;
      try {
        parseHelpHost(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message.replace(/^PANYA_HELP_HOST: /, '') });
      }
    }),
  /** Names (each with its subdomains) no tenant may register as a custom hostname, comma-separated. */
  PANYA_RESERVED_HOSTNAMES: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const names = (value ?? '').split(',').map((n) => n.trim().toLowerCase().replace(/\.$/, '')).filter(Boolean);
      const bad = names.find((n) => !/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9-]{1,63}$/.test(n));
      if (bad) ctx.addIssue({ code: 'custom', message: `"${bad}" is not a hostname (give names such as status.example.com, comma-separated)` });
      return names;
    }),
  /** Proxies in front of the server whose `X-Forwarded-For` is believed: a number of hops, or addresses and CIDR ranges. */
  PANYA_TRUST_PROXY: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      if (value === undefined) return;
      try {
        parseTrustProxy(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message.replace(/^PANYA_TRUST_PROXY: /, '') });
      }
    }),
  /** This node's name for job leases (default: host name and process id). */
  PANYA_NODE_ID: z.string().min(1).optional(),
  PANYA_USER_PASSWORD: z.string().optional(),
  /** `serve`: processes serving HTTP on the shared port (default: the number of cores; 1: no cluster). */
  PANYA_WORKERS: z.coerce.number().int().min(1).max(MAX_WORKERS).optional(),
  /** `demo` and `serve --demo` use this key for the demo tenant instead of generating one. */
  PANYA_DEMO_KEY: z.string().regex(/^svc_live_[0-9A-Za-z]{32}$/, 'must be svc_live_ followed by 32 letters or digits').optional(),
  /** `serve`: background processes running the ingest queue, per serving process (0: on the request thread, as the library does). */
  PANYA_INGEST_THREADS: z.coerce.number().int().min(0).max(16).default(1),
  PANYA_EMBEDDER: z.enum(['auto', 'hash', 'local', 'openai']).default('auto'),
  /** SQLite: `hnsw` searches workspaces of 10,000 chunks or more on a persisted HNSW graph, `exact` scans every vector. */
  PANYA_VECTOR_INDEX: z.enum(['hnsw', 'exact']).default('hnsw'),
  /** SQLite: `off` drops the trigram table behind the trigram fallback (a smaller file; no substring matches of fragments), `on` rebuilds it when missing. */
  PANYA_TRIGRAM_INDEX: z.enum(['on', 'off']).default('on'),
  /** Memory per process for recent search answers, in MB (0: off); any write to what they hold makes them stale on every node. */
  PANYA_SEARCH_CACHE_MB: z.coerce.number().int().min(0).max(65_536).default(32),
  /**
   * Memory per process for loaded lexical indexes, in MB (least recently searched workspaces leave
   * first). Default: an eighth of the machine's memory, shared by the serving processes.
   */
  PANYA_INDEX_CACHE_MB: z.coerce.number().int().min(1).max(1_048_576).optional(),
  /** `local`: model id or folder name, and where models live. */
  PANYA_LOCAL_MODEL: z.string().min(1).optional(),
  PANYA_LOCAL_MODEL_PATH: z.string().min(1).optional(),
  /** ONNX weights variant of the local model: q8 (default), fp32, fp16, q4… */
  PANYA_LOCAL_MODEL_DTYPE: z.enum(['auto', 'fp32', 'fp16', 'q8', 'int8', 'uint8', 'q4', 'bnb4', 'q4f16']).optional(),
  PANYA_MODEL_CACHE: z.string().min(1).optional(),
  /** `openai`: any OpenAI-compatible embeddings API. */
  PANYA_OPENAI_BASE_URL: z.url().optional(),
  PANYA_OPENAI_API_KEY: z.string().min(1).optional(),
  PANYA_EMBEDDING_MODEL: z.string().min(1).default('text-embedding-3-small'),
  PANYA_EMBEDDING_DIMENSIONS: z.coerce.number().int().positive().optional(),
  /** Answers and chat: `extractive` (no model) or any OpenAI-compatible chat model. */
  PANYA_GENERATOR: z.enum(['extractive', 'openai']).default('extractive'),
  PANYA_CHAT_MODEL: z.string().min(1).default('gpt-4o-mini'),
  /** `1`: each chunk gets a model-written context prefix at ingest (billable; needs the openai generator). */
  PANYA_CONTEXTUALIZE: z.enum(['0', '1', 'true', 'false']).default('0').transform((v) => v === '1' || v === 'true'),
})
  .refine((env) => !env.PANYA_CONTEXTUALIZE || env.PANYA_GENERATOR === 'openai', { path: ['PANYA_CONTEXTUALIZE'], message: 'needs PANYA_GENERATOR=openai' })
  // Checked at start: otherwise the server runs and every answer fails at the provider.
  .refine((env) => env.PANYA_GENERATOR !== 'openai' || openAIKeyOptional(env), { path: ['PANYA_OPENAI_API_KEY'], message: OPENAI_KEY_NEEDED('PANYA_GENERATOR=openai') });


export type EnvConfig = z.infer<typeof envSchema>;

const CONFIG = Symbol.for('panya.error.config');

export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly [CONFIG] = true;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasMarker(value, CONFIG);
  }
}

export function isConfigError(error: unknown): error is ConfigError {
  return hasMarker(error, CONFIG);
}

export function loadEnv(env: NodeJS.ProcessEnv = process.env): EnvConfig {
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => {
    const value = env[String(i.path[0])];
    return `  ${i.path.join('.')}: ${i.message} (${value === undefined || value === '' ? 'not set' : `got ${JSON.stringify(value)}`})`;
  });
  throw new ConfigError(`Invalid environment configuration:\n${lines.join('\n')}`);
}

/**
 * The API's own hostnames: `PANYA_BASE_URL`'s, and the address the server listens on when it is
 * a name (`HOST`). No tenant may register them as custom hostnames; requests for them are the API's.
 */
export function apiHostnamesOf(config: Pick<EnvConfig, 'PANYA_BASE_URL' | 'HOST'>): string[] {
  const names = new Set<string>();
  if (config.PANYA_BASE_URL) names.add(new URL(config.PANYA_BASE_URL).hostname.toLowerCase());
  const host = config.HOST.trim().toLowerCase();
  if (/[a-z]/.test(host) && !host.includes(':') && host !== 'localhost') names.add(host);
  return [...names];
}
