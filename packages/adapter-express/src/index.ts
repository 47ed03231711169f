export { createPanyaApp, type PanyaAppOptions, requestListener } from './app.js';
export { toProblem, type Problem } from './problem.js';
// File conversion lives in @panya/convert; named here too so earlier imports keep working.
export { closeConversionPool, convertUpload, ConversionLimitError, isConversionLimitError, isUnsupportedMediaTypeError, SUPPORTED_UPLOAD_EXTENSIONS, UnsupportedMediaTypeError, type ConvertedUpload, type UploadedFile } from '@panya/convert';
export { MAX_UPLOAD_BYTES } from './routes/upload.js';
export { helpCenterDispatch, type HelpCenterOptions } from './help/router.js';
export { renderMarkdown } from './help/markdown.js';
export { runAsBackgroundThread } from '@panya/core';
export { uploadAdmission, type AdmissionLimit, type UploadAdmission } from './upload/admission.js';
export { apiDocument, DECLARED_ROUTES, PANYA_API_VERSION } from './openapi.js';
export { answerClusterMetrics } from './cluster-metrics.js';
export { parseTrustProxy, type TrustProxy } from './trust-proxy.js';
