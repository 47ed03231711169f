import type { Request } from 'express';
import type multer from 'multer';
import { hasMarker } from '@panya/core';

const UPLOAD_TOO_LARGE = Symbol.for('panya.error.upload-too-large');

/** Raised when the files of one request together pass the request's byte budget. */
export class UploadTooLargeError extends Error {
  override readonly name = 'UploadTooLargeError';
  readonly [UPLOAD_TOO_LARGE] = true;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasMarker(value, UPLOAD_TOO_LARGE);
  }
  constructor(readonly maxBytes: number) {
    super(`The files of one upload may total at most ${maxBytes} bytes.`);
  }
}

export function isUploadTooLargeError(error: unknown): error is UploadTooLargeError {
  return hasMarker(error, UPLOAD_TOO_LARGE);
}

/**
 * Multer storage that keeps files in memory like `memoryStorage`, but with a budget for all the
 * files of one request together: past it the upload fails at once instead of buffering on.
 */
export function boundedMemoryStorage(maxRequestBytes: number): multer.StorageEngine {
  const used = new WeakMap<Request, number>();
  return {
    _handleFile(req, file, cb) {
      const chunks: Buffer[] = [];
      let size = 0;
      let failed = false;
      file.stream.on('data', (chunk: Buffer) => {
        if (failed) return;
        const total = (used.get(req) ?? 0) + chunk.length;
        used.set(req, total);
        if (total > maxRequestBytes) {
          failed = true;
          chunks.length = 0;
          return cb(new UploadTooLargeError(maxRequestBytes));
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      file.stream.once('error', (error: Error) => {
        if (!failed) (failed = true), cb(error);
      });
      file.stream.once('end', () => {
        if (!failed) cb(null, { buffer: Buffer.concat(chunks, size), size });
      });
    },
    _removeFile(_req, file, cb) {
      delete (file as { buffer?: Buffer }).buffer;
      cb(null);
    },
  };
}
