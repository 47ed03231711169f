export { convertUpload, ConversionLimitError, isConversionLimitError, isUnsupportedMediaTypeError, SUPPORTED_UPLOAD_EXTENSIONS, UnsupportedMediaTypeError, type ConvertedUpload, type UploadedFile } from './convert.js';
export { closeConversionPool, convertInWorker } from './pool.js';
export type { ConversionOutcome } from './convert-worker.js';
