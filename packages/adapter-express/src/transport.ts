import type { Logger, PanyaError } from '@panya/core';
import { errors, isStoreBusy, MAX_JSON_DEPTH, nestedDeeperThan, panyaError, storeBusy, tooDeep } from '@panya/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { sendProblem } from './problem.js';
import { hasBody } from './routing.js';


/**
 * A client must finish sending its body within `timeoutMs`: a trickled body ends with 408 (sent
 * by `refuse`) and the connection is closed, so it holds neither a socket nor a parser for long.
 */
export function armBodyDeadline(req: IncomingMessage, res: ServerResponse, timeoutMs: number, logger: Logger, refuse: (problem: PanyaError) => void): void {
  if (req.complete || !hasBody(req)) return;
  const timer = setTimeout(() => {
    if (req.complete) return;
    logger.info('request body timed out', { method: req.method, path: (req as Partial<Request>).originalUrl ?? req.url, timeoutMs });
    if (!res.headersSent) {
      res.once('finish', () => req.socket.destroy());
      refuse(panyaError('request_timeout', { message: `The request body was not received within ${timeoutMs / 1000} s.`, timeoutMs }));
    } else {
      req.socket.destroy();
    }
  }, timeoutMs);
  timer.unref();
  const clear = () => clearTimeout(timer);
  req.once('end', clear);
  req.once('close', clear);
  res.once('finish', clear);
}

export function bodyDeadline(timeoutMs: number, logger: Logger): RequestHandler {
  return (req, res, next) => {
    armBodyDeadline(req, res, timeoutMs, logger, (problem) => sendProblem(req, res, problem));
    next();
  };
}

/**
 * After a body parser: a body nested past `MAX_JSON_DEPTH` is 400 before any route (idempotency's
 * canonical form, a schema, a serializer) walks it recursively.
 */
export const jsonDepthLimit: RequestHandler = (req, res, next) => {
  if (nestedDeeperThan(req.body, MAX_JSON_DEPTH)) return sendProblem(req, res, tooDeep());
  next();
};

interface HttpError {
  status?: number;
  statusCode?: number;
  type?: string;
  code?: string;
  message?: string;
}

/** A client that went away mid-request: nothing to answer, nothing wrong with the server. */
function isClientAbort(error: HttpError): boolean {
  return error.type === 'request.aborted' || error.code === 'ECONNRESET' || error.code === 'ECONNABORTED' || error.message === 'aborted' || error.message === 'Request aborted';
}

/** The problem a client fault raised by Express or its body parsers stands for, or null for a server fault. */
function clientFault(error: HttpError, jsonLimit: number): PanyaError | null {
  const status = error.status ?? error.statusCode;
  switch (error.type) {
    case 'entity.too.large':
      return panyaError('payload_too_large', { message: `Request body exceeds ${jsonLimit} bytes.`, maxBytes: jsonLimit, limit: 'MAX_JSON_BODY_BYTES' });
    case 'entity.parse.failed':
      return errors.invalid('Request body is not valid JSON.', [{ path: '', message: error.message ?? 'invalid JSON' }]);
    case 'charset.unsupported':
      return panyaError('unsupported_media_type', { message: `${error.message}: request bodies must be UTF-8.`, supported: ['utf-8'] });
    case 'encoding.unsupported':
      return panyaError('unsupported_media_type', { message: 'Unsupported Content-Encoding: send identity, gzip, deflate or br.', supported: ['identity', 'gzip', 'deflate', 'br'] });
    default:
      break;
  }
  if (status === 415) return panyaError('unsupported_media_type', { message: error.message ?? 'Unsupported media type.', supported: [] });
  if (status === 413) return panyaError('payload_too_large', { message: error.message ?? 'Request body too large.', maxBytes: jsonLimit });
  if (status === 408) return panyaError('request_timeout', { message: 'The request was not received in time.', timeoutMs: 0 });
  // Everything else in 4xx from Express or the parsers: a malformed path (percent-encoding), a
  // corrupt compressed body, a body whose length does not match its header.
  if (status !== undefined && status >= 400 && status < 500) return errors.invalid(`Malformed request: ${error.message ?? 'unreadable'}.`);
  return null;
}

/**
 * What a failed request answers, and the log line that says why: client faults become 4xx
 * problem documents logged at info without a stack; client aborts (`null`: nothing to answer) are
 * logged at debug; a database too busy to take a write answers 503 with Retry-After, logged at
 * warn. Only a server fault on an authenticated request is logged as an error, so no
 * unauthenticated caller can write error-level lines.
 */
export function failureProblem(error: unknown, req: IncomingMessage, logger: Logger, jsonLimit: number, authenticated: boolean): PanyaError | null {
  const fault = error as HttpError;
  const where = { method: req.method, path: (req as Partial<Request>).originalUrl ?? req.url };
  if (isClientAbort(fault) || req.socket?.destroyed) {
    logger.debug('client went away', { ...where, reason: fault.message });
    return null;
  }
  const problem = clientFault(fault, jsonLimit);
  if (problem) {
    logger.info('client fault', { ...where, status: fault.status ?? fault.statusCode, reason: fault.message });
    return problem;
  }
  if (isStoreBusy(error)) {
    // Overload, not a fault: the writes were refused whole, and the client may try again.
    logger.warn('database busy', { ...where, reason: error.message });
    return storeBusy();
  }
  const detail = { ...where, error: error instanceof Error ? error.stack : String(error) };
  if (authenticated) logger.error('request failed', detail);
  else logger.warn('request failed before authentication', detail);
  return errors.internal();
}

/** The last error handler: answers `failureProblem`, or drops a response its client left. */
export function errorHandler(logger: Logger, jsonLimit: number): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const problem = failureProblem(error, req, logger, jsonLimit, res.locals.ctx !== undefined);
    if (!problem) {
      if (!res.headersSent && !res.writableEnded) res.destroy();
      return;
    }
    if (res.headersSent) return res.end();
    sendProblem(req, res, problem);
  };
}
