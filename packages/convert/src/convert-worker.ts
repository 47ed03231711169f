/** A conversion worker thread: converts one file; failures come back as data (errors do not survive the thread boundary). */
import { runAsBackgroundThread } from '@panya/core';
import { convertUpload, isConversionLimitError, isUnsupportedMediaTypeError, type ConversionLimitError, type ConvertedUpload, type UploadedFile } from './convert.js';

export type ConversionOutcome =
  | { ok: true; value: ConvertedUpload }
  | { ok: false; kind: 'unsupported' | 'unreadable'; message: string }
  | { ok: false; kind: 'limit'; message: string; limit: ConversionLimitError['limit']; max: number };

runAsBackgroundThread();

export default async function convert(file: UploadedFile): Promise<ConversionOutcome> {
  try {
    return { ok: true, value: await convertUpload(file) };
  } catch (error) {
    if (isUnsupportedMediaTypeError(error)) return { ok: false, kind: 'unsupported', message: error.message };
    if (isConversionLimitError(error)) return { ok: false, kind: 'limit', message: error.message, limit: error.limit, max: error.max };
    return { ok: false, kind: 'unreadable', message: error instanceof Error ? error.message : String(error) };
  }
}
