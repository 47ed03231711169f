/**
 * Every limit that bounds the cost of one request, in one place. Each is documented in the README
 * ("Limits") and refused with a problem document naming it (413 for sizes, 422 for content that
 * is well-formed but too costly to process, 408 for slow clients).
 */

/** Search, answer and chat queries: characters accepted (longer is 400). */
export const MAX_QUERY_CHARS = 2_000;
/**
 * Distinct lexical terms one query searches for. Past this, only the most selective terms are
 * kept, so a query's cost no longer grows with its length.
 */
export const MAX_QUERY_TERMS = 16;
/** Adjacent term pairs (proximity boost) searched per query. */
export const MAX_QUERY_PAIRS = 8;
/** Character trigrams of Thai (and other unspaced-script) words searched per query. */
export const MAX_QUERY_GRAMS = 48;
/** Surface fragments the trigram fallback matches per query. */
export const MAX_QUERY_FRAGMENTS = 8;
/** Passages handed to the generator per answer or chat turn. */
export const CONTEXT_PASSAGES = 6;

/** JSON request bodies (413 `payload_too_large`). */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;
/** One uploaded file (413). */
export const MAX_UPLOAD_FILE_BYTES = 10 * 1024 * 1024;
/** Files per upload request. */
export const MAX_UPLOAD_FILES = 20;
/** All files of one upload request together (413): well under files × per-file size. */
export const MAX_UPLOAD_REQUEST_BYTES = 32 * 1024 * 1024;
/**
 * Upload bytes one server process holds (received, being parsed and converted) at once, all
 * tenants together, counted as they arrive; a chunk over it waits (the rest of the body unread)
 * for up to `UPLOAD_ADMISSION_WAIT_MS`, then the upload gets 503 with Retry-After naming the
 * limit. Bounds the memory and serving-thread time uploads take.
 */
export const MAX_UPLOAD_BYTES_IN_FLIGHT = 64 * 1024 * 1024;
/** Upload bytes one tenant holds in one process (same wait, then 503), checked first: half the process's, so another tenant always gets in. */
export const MAX_TENANT_UPLOAD_BYTES_IN_FLIGHT = 32 * 1024 * 1024;
/** How long an upload waits for room under the in-flight limits before 503. */
export const UPLOAD_ADMISSION_WAIT_MS = 10_000;
/** Pages of one PDF (422 `limit_exceeded`, limit `MAX_PDF_PAGES`). */
export const MAX_PDF_PAGES = 10_000;
/**
 * Bytes the compressed (Flate) streams of one PDF may inflate to, images left out (422, limit
 * `MAX_PDF_INFLATED_BYTES`): counted before the PDF is parsed, so a decompression bomb costs a
 * bounded inflate instead of a parse of what it expands to.
 */
export const MAX_PDF_INFLATED_BYTES = 64 * 1024 * 1024;
/** Characters of text one converted file may produce (422): a document's own cap, and where a decompression bomb stops. */
export const MAX_CONVERTED_CHARS = 2_000_000;
/** Heap of a conversion worker (MB): inflated PDF streams beyond it end that conversion, not the server. */
export const MAX_CONVERSION_HEAP_MB = 512;
/**
 * Content bytes one ingest claim takes at most (the first document always): claiming rewrites each
 * claimed row under the database's write lock (SQLite rewrites a whole row when its size changes),
 * so a batch of 32 one-megabyte documents held the lock every other writer waits for 300–460 ms.
 */
export const MAX_INGEST_CLAIM_BYTES = 2 * 1024 * 1024;
/** Wall-clock budget to convert one upload request's files (422, limit `CONVERSION_BUDGET_MS`). */
export const CONVERSION_BUDGET_MS = 30_000;

/** A client must send its request headers within this (then the connection is closed). */
export const HEADERS_TIMEOUT_MS = 20_000;
/** A client must send its whole request body within this (408 `request_timeout`). */
export const REQUEST_BODY_TIMEOUT_MS = 30_000;
/** After SIGTERM, open requests get this long before their connections are closed. */
export const SHUTDOWN_GRACE_MS = 10_000;
/** Chat streams one API key (or signed-in user, or publishable key) may hold open at once on one node. */
export const MAX_CHAT_STREAMS_PER_KEY = 10;
/** Chat streams one tenant may hold open at once on one node (each holds a model stream upstream). */
export const MAX_CHAT_STREAMS_PER_TENANT = 50;
/** Chat streams one visitor of a public surface (widget, help center) may hold open at once on one node. */
export const MAX_CHAT_STREAMS_PER_VISITOR = 2;
/** Long-polls (`GET /conversations/{id}/poll`) one key (or user) may hold waiting at once on one node. */
export const MAX_LONG_POLLS_PER_KEY = 100;
/** Long-polls one tenant may hold waiting at once on one node. */
export const MAX_LONG_POLLS_PER_TENANT = 500;
/** Long-polls one visitor of a public surface may hold waiting at once on one node. */
export const MAX_LONG_POLLS_PER_VISITOR = 4;

/**
 * How long a process may keep trusting an API key it looked up: a key revoked by another process
 * or node stops working everywhere within this long (at once in the process that revoked it).
 */
export const API_KEY_CACHE_MS = 1_000;
/** API keys a process keeps looked up at most (the oldest are dropped first): more than a node's 10,000 tenants hold. */
export const API_KEY_CACHE_ENTRIES = 50_000;
/** `/readyz` answers within about this long: a database that does not answer in time counts as not ready. */
export const READINESS_TIMEOUT_MS = 2_000;

/**
 * Nesting of a JSON request body (objects and arrays): deeper is 400. Checked by the JSON reader
 * of every route before any schema or canonical form walks the value recursively.
 */
export const MAX_JSON_DEPTH = 64;
/** A kept `Idempotency-Key` response larger than this is kept without its body (a replay is 409). */
export const MAX_IDEMPOTENT_RESPONSE_BYTES = 256 * 1024;
/** Response bytes one API key (or user) may have kept under `Idempotency-Key` per UTC day. */
export const IDEMPOTENCY_BYTES_PER_KEY_PER_DAY = 16 * 1024 * 1024;
/** Response bytes one tenant may have kept under `Idempotency-Key` per UTC day, all callers together. */
export const IDEMPOTENCY_BYTES_PER_TENANT_PER_DAY = 64 * 1024 * 1024;

/** Help-center page views (home, articles, search) one client address may make per minute on one node (then 429). */
export const HELP_PAGE_VIEWS_PER_ADDRESS_PER_MINUTE = 120;
/** How long one node reuses a help center's search results for the same query (the page says `max-age=60` too). */
export const HELP_SEARCH_CACHE_MS = 60_000;
/** Help-center searches one node keeps results of. */
export const HELP_SEARCH_CACHE_ENTRIES = 2_000;
