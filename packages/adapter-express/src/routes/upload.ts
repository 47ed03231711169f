import { setMaxListeners } from 'node:events';
import { Transform } from 'node:stream';
import type { Engine, PanyaError } from '@panya/core';
import { CONVERSION_BUDGET_MS, errors, MAX_TENANT_UPLOAD_BYTES_IN_FLIGHT, MAX_UPLOAD_BYTES_IN_FLIGHT, MAX_UPLOAD_FILE_BYTES, MAX_UPLOAD_FILES, MAX_UPLOAD_REQUEST_BYTES, panyaError, UPLOAD_ADMISSION_WAIT_MS, uploadedDocument } from '@panya/core';
import { convertInWorker, SUPPORTED_UPLOAD_EXTENSIONS, type ConvertedUpload } from '@panya/convert';
import { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import multer from 'multer';
import { ctxOf } from '../context.js';
import { sendProblem } from '../problem.js';
import { uploadAdmission, type AdmissionLimit, type UploadAdmission } from '../upload/admission.js';
import { boundedMemoryStorage, isUploadTooLargeError } from '../upload/storage.js';

/** @deprecated use `MAX_UPLOAD_FILE_BYTES` from `@panya/core`. */
export const MAX_UPLOAD_BYTES = MAX_UPLOAD_FILE_BYTES;

const tooLarge = (message: string, maxBytes: number, limit: string) => panyaError('payload_too_large', { message, maxBytes, limit });
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A declared length over the request budget is refused before a byte of the body is read. */
const declaredSize: RequestHandler = (req, res, next) => {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared <= MAX_UPLOAD_REQUEST_BYTES) return next();
  res.setHeader('Connection', 'close');
  sendProblem(req, res, tooLarge(`An upload may total at most ${MAX_UPLOAD_REQUEST_BYTES / 1024 / 1024} MB.`, MAX_UPLOAD_REQUEST_BYTES, 'MAX_UPLOAD_REQUEST_BYTES'));
};

/** Seconds a refused upload is told to wait before trying again. */
const ADMISSION_RETRY_AFTER_S = 5;

/**
 * An upload's body is admitted as it arrives: each chunk's bytes are taken from the in-flight
 * limits (its tenant's first, then the server's) before the parser sees it, and held until the
 * response is done. A chunk without room waits (the body stays unread: the client is held back
 * by TCP), so a tenant's slow or unlengthed uploads hold only the bytes they actually sent and
 * never another tenant's room. Past the wait, 503 with Retry-After naming the limit, and the
 * connection is closed (the rest of the body is never read).
 */
function meteredBody(admission: UploadAdmission, waitMs: number): RequestHandler {
  return (req, res, next) => {
    const tenant = ctxOf(res).scope.tenantId;
    const releases: (() => void)[] = [];
    const gone = new AbortController();
    res.once('close', () => {
      gone.abort();
      for (const release of releases.splice(0)) release();
    });
    const refuse = (refused: AdmissionLimit, max: number) => {
      if (res.headersSent) return void req.socket.destroy();
      const whose = refused === 'MAX_UPLOAD_BYTES_IN_FLIGHT' ? 'this server' : 'one tenant';
      res.setHeader('Connection', 'close');
      res.once('finish', () => req.socket.destroy());
      const message = `Too many uploads in progress: ${whose} reads at most ${Math.round((max / 1024 / 1024) * 10) / 10} MB of uploads at once. Try again in ${ADMISSION_RETRY_AFTER_S} s.`;
      sendProblem(req, res, panyaError('unavailable', { message, limit: refused, max, retryAfterSeconds: ADMISSION_RETRY_AFTER_S }));
    };
    let refusedOnce = false;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        if (refusedOnce) return done();
        admission.acquire(tenant, chunk.length, waitMs, gone.signal).then((outcome) => {
          if ('release' in outcome) {
            if (gone.signal.aborted) outcome.release();
            else releases.push(outcome.release);
            return done(null, chunk);
          }
          refusedOnce = true;
          if (!gone.signal.aborted) refuse(outcome.refused, outcome.max);
          done();
        }, done);
      },
    });
    // The parser reads the request through the meter.
    const pipe = req.pipe.bind(req);
    const unpipe = req.unpipe.bind(req);
    req.pipe = (<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }) => {
      pipe(meter);
      return meter.pipe(destination, options);
    }) as typeof req.pipe;
    req.unpipe = ((destination?: NodeJS.WritableStream) => {
      meter.unpipe(destination);
      unpipe(meter);
      return req;
    }) as typeof req.unpipe;
    next();
  };
}

/**
 * `POST /docs/upload`: multipart files (field `file`, up to 20) become documents. Files are
 * converted in worker threads under one time budget (a client that leaves stops its conversion);
 * every file is converted before anything is written, so one bad file writes nothing.
 */
export interface UploadRouterOptions {
  admission?: UploadAdmission;
  admissionWaitMs?: number;
}

export function uploadRouter(engine: Engine, options: UploadRouterOptions = {}): Router {
  const router = Router({ mergeParams: true });
  const admission = options.admission ?? uploadAdmission(MAX_UPLOAD_BYTES_IN_FLIGHT, MAX_TENANT_UPLOAD_BYTES_IN_FLIGHT);
  const parse = multer({ storage: boundedMemoryStorage(MAX_UPLOAD_REQUEST_BYTES), limits: { fileSize: MAX_UPLOAD_FILE_BYTES, files: MAX_UPLOAD_FILES, fields: 10, parts: MAX_UPLOAD_FILES + 10 } }).array('file', MAX_UPLOAD_FILES);

  router.post('/', declaredSize, meteredBody(admission, options.admissionWaitMs ?? UPLOAD_ADMISSION_WAIT_MS), parse, async (req, res) => {
    const files = (req.files as Express.Multer.File[] | undefined) ?? [];
    if (files.length === 0) {
      return sendProblem(req, res, errors.invalid('Send at least one file in the multipart field "file".', [{ path: 'file', message: 'required' }]));
    }
    const names = files.map((f) => Buffer.from(f.originalname, 'latin1').toString('utf8'));
    const badName = names.findIndex((n) => CONTROL.test(n));
    if (badName >= 0) return sendProblem(req, res, errors.invalid('A file name must not contain control characters.', [{ path: `file[${badName}]`, message: 'control character in file name' }]));

    // One budget for the whole request; a client that disconnects aborts the conversion at once.
    const gone = new AbortController();
    const onClose = () => !res.writableFinished && gone.abort();
    res.once('close', onClose);
    const budget = AbortSignal.timeout(CONVERSION_BUDGET_MS);
    const signal = AbortSignal.any([gone.signal, budget]);
    setMaxListeners(MAX_UPLOAD_FILES + 1, signal); // one listener per file's conversion
    let converted: ConvertedUpload[];
    try {
      const outcomes = await Promise.all(files.map((f, i) => convertInWorker({ filename: names[i]!, mimeType: f.mimetype, bytes: f.buffer }, signal)));
      const failed = outcomes.find((o) => !o.ok);
      if (failed && !failed.ok) {
        const problem: PanyaError =
          failed.kind === 'unsupported'
            ? panyaError('unsupported_media_type', { message: failed.message, supported: [...SUPPORTED_UPLOAD_EXTENSIONS] })
            : failed.kind === 'limit'
              ? panyaError('limit_exceeded', { message: failed.message, limit: failed.limit, max: failed.max })
              : errors.invalid(`Could not read a file: ${failed.message}`, [{ path: 'file', message: 'unreadable' }]);
        return sendProblem(req, res, problem);
      }
      converted = outcomes.map((o) => (o.ok ? o.value : null!));
    } catch (error) {
      if (gone.signal.aborted) return; // nobody is waiting for the answer
      if (budget.aborted) {
        return sendProblem(req, res, panyaError('limit_exceeded', { message: `Converting the files took longer than ${CONVERSION_BUDGET_MS / 1000} s.`, limit: 'CONVERSION_BUDGET_MS', max: CONVERSION_BUDGET_MS }));
      }
      // A worker that ran out of its heap (e.g. a decompression bomb) ends that conversion only.
      return sendProblem(req, res, errors.invalid(`Could not read a file: ${(error as Error).message}`, [{ path: 'file', message: 'unreadable' }]));
    } finally {
      res.off('close', onClose);
    }
    const wait = req.query.wait === 'true' || req.query.wait === '1';
    const created = await engine.documents.upload(ctxOf(res), { files: converted, title: req.body?.title, publicSurfaces: req.body?.publicSurfaces }, { wait });
    if (created.isErr()) return sendProblem(req, res, created.error);
    res.status(201).json({ data: created.value.map(uploadedDocument) });
  });

  const onParseError: ErrorRequestHandler = (error, req, res, next) => {
    if (isUploadTooLargeError(error)) {
      res.setHeader('Connection', 'close');
      return sendProblem(req, res, tooLarge(error.message, error.maxBytes, 'MAX_UPLOAD_REQUEST_BYTES'));
    }
    if (error instanceof multer.MulterError) {
      if (error.code === 'LIMIT_FILE_SIZE') {
        return sendProblem(req, res, tooLarge(`Each file may be at most ${MAX_UPLOAD_FILE_BYTES / 1024 / 1024} MB.`, MAX_UPLOAD_FILE_BYTES, 'MAX_UPLOAD_FILE_BYTES'));
      }
      if (error.code === 'LIMIT_UNEXPECTED_FILE') {
        return sendProblem(req, res, errors.invalid(`Files go in the multipart field "file" (got a file in "${error.field}").`, [{ path: error.field ?? 'file', message: 'use the field "file"' }]));
      }
      return sendProblem(req, res, errors.invalid(`Invalid upload: ${error.message}.`, [{ path: error.field ?? 'file', message: error.code }]));
    }
    // busboy's own errors: a malformed multipart body. A client that left is the app's concern.
    if (req.socket?.destroyed || (error as { code?: string }).code === 'ECONNRESET') return next(error);
    if (error instanceof Error && !(error as { status?: number }).status) {
      return sendProblem(req, res, errors.invalid(`Malformed multipart body: ${error.message}.`, [{ path: 'file', message: 'malformed' }]));
    }
    next(error);
  };
  router.use(onParseError);
  return router;
}
