import type { Engine } from '@panya/core';
import { errors, panyaError, PUBLIC_SURFACES } from '@panya/core';
import { Router, type ErrorRequestHandler } from 'express';
import multer from 'multer';
import { ctxOf } from '../context.js';
import { sendProblem } from '../problem.js';
import { convertUpload, SUPPORTED_UPLOAD_EXTENSIONS, UnsupportedMediaTypeError } from '../upload/convert.js';
import { documentJson } from './json.js';

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
const MAX_FILES = 20;

/**
 * `POST /docs/upload`: multipart files (field `file`, up to 20) become documents. Every file is
 * converted before anything is written, so one unsupported file writes nothing.
 */
export function uploadRouter(engine: Engine): Router {
  const router = Router({ mergeParams: true });
  const parse = multer({ storage: multer.memoryStorage(), limits: { fileSize: MAX_UPLOAD_BYTES, files: MAX_FILES, fields: 10 } }).array('file', MAX_FILES);

  router.post('/', parse, async (req, res) => {
    const files = (req.files as Express.Multer.File[] | undefined) ?? [];
    if (files.length === 0) {
      return sendProblem(req, res, errors.invalid('Send at least one file in the multipart field "file".', [{ path: 'file', message: 'required' }]));
    }
    const surfaces = String(req.body?.publicSurfaces ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const converted = [];
    for (const file of files) {
      try {
        converted.push(await convertUpload({ filename: Buffer.from(file.originalname, 'latin1').toString('utf8'), mimeType: file.mimetype, bytes: file.buffer }));
      } catch (error) {
        if (error instanceof UnsupportedMediaTypeError) {
          return sendProblem(req, res, panyaError('unsupported_media_type', { message: error.message, supported: [...SUPPORTED_UPLOAD_EXTENSIONS] }));
        }
        return sendProblem(req, res, errors.invalid(`Could not read "${file.originalname}": ${(error as Error).message}`, [{ path: 'file', message: 'unreadable' }]));
      }
    }
    const title = typeof req.body?.title === 'string' && files.length === 1 ? req.body.title : undefined;
    const create = converted.map((c) => ({
      title: (title ?? c.title).slice(0, 300) || 'Untitled',
      contentMd: c.contentMd,
      publicSurfaces: surfaces as (typeof PUBLIC_SURFACES)[number][],
    }));
    const created = await engine.documents.bulk(ctxOf(res), { create });
    if (created.isErr()) return sendProblem(req, res, created.error);
    const docs = await engine.store.documents.getMany(ctxOf(res).scope, created.value.map((r) => r.id));
    res.status(201).json({ data: docs.map(documentJson) });
  });

  const onMulterError: ErrorRequestHandler = (error, req, res, next) => {
    if (!(error instanceof multer.MulterError)) return next(error);
    if (error.code === 'LIMIT_FILE_SIZE') {
      return sendProblem(req, res, panyaError('payload_too_large', { message: `Each file may be at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB.`, maxBytes: MAX_UPLOAD_BYTES }));
    }
    sendProblem(req, res, errors.invalid(`Invalid upload: ${error.message}.`, [{ path: error.field ?? 'file', message: error.code }]));
  };
  router.use(onMulterError);
  return router;
}
