/**
 * @esign/core/uploads: a request's uploaded files. Light on purpose: packages/http's JSON parsing
 * thread loads it, so it names only modules that import nothing of the service.
 */
// biome-ignore-all assist/source/organizeImports: the exports stay in their commented groups

// Uploaded files of one request, and decoding a streamed base64 value into one.
export { Base64Upload, type UploadedFile, uploadRef } from '../services/base64-upload.ts';
export { uploadFileName } from '../services/upload-files.ts';
export { UploadedFiles } from '../services/uploads.ts';
