export { createPanyaApp, type PanyaAppOptions } from './app.js';
export { toProblem, type Problem } from './problem.js';
export { convertUpload, ConversionLimitError, SUPPORTED_UPLOAD_EXTENSIONS, UnsupportedMediaTypeError, type ConvertedUpload, type UploadedFile } from './upload/convert.js';
export { MAX_UPLOAD_BYTES } from './routes/upload.js';
export { closeConversionPool } from './upload/pool.js';
export { helpCenterDispatch, type HelpCenterOptions } from './help/router.js';
export { renderMarkdown } from './help/markdown.js';
export { runAsBackgroundThread } from './background-thread.js';
export { uploadAdmission, type AdmissionLimit, type UploadAdmission } from './upload/admission.js';
