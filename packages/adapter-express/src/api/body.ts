import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** A fault reading a body, named as Express's body parser names it (`transport.ts` maps these to problems). */
function fault(type: string, status: number, message: string): Error {
  return Object.assign(new Error(message), { type, status, statusCode: status, expose: true });
}

const JSON_TYPE = /^application\/(?:json|[^;\s]+\+json)\s*(?:;|$)/i;
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;

/** Whether the request announces a body (a length above zero, or chunked transfer). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** Whether the request says its body is JSON (`application/json`, `application/*+json`). */
export const isJsonType = (req: IncomingMessage) => req.headers['content-type'] !== undefined && JSON_TYPE.test(req.headers['content-type']);

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The JSON body of a request, or undefined when it announces none or another type: read whole up
 * to `limit` bytes (declared and, once decompressed, received), chunked or not, identity, gzip,
 * deflate or br encoded; UTF-8 only (a BOM skipped); an object or an array at the top.
 */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  if (!hasBody(req) || !isJsonType(req)) return undefined;
  const charset = CHARSET.exec(req.headers['content-type']!)?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') throw fault('charset.unsupported', 415, `unsupported charset "${charset.toUpperCase()}"`);
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  const declared = req.headers['content-length'] === undefined ? null : Number(req.headers['content-length']);
  if (declared !== null && encoding === 'identity' && declared > limit) throw fault('entity.too.large', 413, 'request entity too large');
  let stream: Readable = req;
  if (encoding === 'gzip') stream = req.pipe(createGunzip());
  else if (encoding === 'deflate') stream = req.pipe(createInflate());
  else if (encoding === 'br') stream = req.pipe(createBrotliDecompress());
  else if (encoding !== 'identity') throw fault('encoding.unsupported', 415, `unsupported content encoding "${encoding}"`);
  const bytes = await collect(req, stream, limit);
  if (encoding === 'identity' && declared !== null && bytes.length !== declared) throw fault('request.size.invalid', 400, 'request size did not match content length');
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw fault('entity.parse.failed', 400, 'The body is not valid UTF-8');
  }
  if (text.length === 0) return {};
  const first = /^[\x20\x09\x0a\x0d]*(.)/.exec(text)?.[1];
  if (first !== '{' && first !== '[') throw fault('entity.parse.failed', 400, `Unexpected token ${JSON.stringify(first ?? '')}: the body must be a JSON object`);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw fault('entity.parse.failed', 400, (error as Error).message);
  }
}

/** Every byte of `stream` (the request, or its decompression), refusing past `limit`. */
function collect(req: IncomingMessage, stream: Readable, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      if (stream !== req) stream.destroy();
      // Stop reading: what is left of the body is not wanted (the response closes the connection if need be).
      req.unpipe();
      req.resume();
      reject(error);
    };
    stream.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) return fail(fault('entity.too.large', 413, 'request entity too large'));
      chunks.push(chunk);
    });
    stream.once('end', () => {
      if (settled) return;
      settled = true;
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    // A corrupt compressed body is the client's fault.
    stream.once('error', (error: Error & { code?: string }) => fail(stream === req ? error : Object.assign(fault('encoding.invalid', 400, `corrupt ${req.headers['content-encoding']} body: ${error.message}`), { cause: error })));
    // Closed before the end: the client went away (the body deadline closes it too).
    req.once('close', () => (req.complete ? undefined : fail(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }))));
  });
}
