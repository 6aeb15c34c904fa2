// The face of the images feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { replaceImageFile } from './image-replace.ts';
export { imagesFeature } from './routes.ts';
export { removeMediaFiles } from './storage.ts';
export { describeUsage, findImageUsage, imageBodyLimit, isUsed, readBulkDelete, readDeleteForce, readImageForm, storeUploadedImage, urlsOf } from './upload.ts';
export type { ImageUsage } from './upload.ts';
