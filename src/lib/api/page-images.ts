// The image library of a namespace: images and YouTube video items (docs/content-api.md, 'Images').
import type { imagesRoutes } from '../../../server/features/images/routes.ts';
import type { VariantSizes } from '../../../server/features/images/storage.ts';
import type { Namespace } from '../../../common/snapshot-types.ts';
import { api } from './request.ts';
import type { Answer } from './route-types.ts';
import { uploadWithProgress } from './transfer.ts';

type PresentedImage = Answer<typeof imagesRoutes, '/images', '$get'>['images'][number];

/**
 * A page image or video item. The server parses its JSON columns into open objects; these are the keys
 * it writes into them (docs/content-api.md, 'Images').
 */
export type PageImage = Omit<PresentedImage, 'image_url' | 'sizes'> & {
  image_url: Partial<Record<'thumb' | 'image' | 'lg' | 'fallback' | 'video', string>>;
  sizes: Partial<VariantSizes>;
};

export interface ImageDetails {
  title: string;
  alt: string;
}

type Written<Key extends string> = { message: string } & Record<Key, PageImage>;

export async function fetchPageImages(ns: Namespace): Promise<PageImage[]> {
  const answer = await api.get<{ images: PageImage[] }>(`/api/${ns}/images`, { loading: false });
  return answer.images;
}

/** `details`: the title and alt text asked for at upload; without them the server titles it after the file. */
export function uploadPageImage(ns: Namespace, file: File, details: ImageDetails | null = null): Promise<Written<'image'>> {
  const form = new FormData();
  appendDetails(form, details);
  form.append('file', file, file.name);
  return uploadWithProgress('POST', `/api/${ns}/images`, form, file.name);
}

/** The text fields go before the file, as the server reads the form. */
export function appendDetails(form: FormData, details: ImageDetails | null): void {
  if (!details) return;
  if (details.title !== undefined) form.append('title', details.title);
  if (details.alt !== undefined) form.append('alt', details.alt);
}

export function addVideo(ns: Namespace, videoUrl: string): Promise<Written<'image'>> {
  return api.post(`/api/${ns}/images`, { video_url: videoUrl });
}

/** Replaces a page image's file. */
export function replaceImageFile(ns: Namespace, id: number, file: File): Promise<{ message: string; image?: PageImage }> {
  return replaceLibraryImageFile<PageImage>(ns, id, file);
}

/**
 * Replaces an image's file in either library: `route` is a namespace or 'home' (the same path serves both;
 * home.ts names its own image type).
 */
export function replaceLibraryImageFile<Image>(route: Namespace | 'home', id: number, file: File): Promise<{ message: string; image?: Image }> {
  const form = new FormData();
  form.append('file', file, file.name);
  return uploadWithProgress('POST', `/api/${route}/image/update-image/${id}`, form, file.name);
}

export function savePageImageDetails(ns: Namespace, id: number, details: ImageDetails): Promise<Written<'image'>> {
  return api.put(`/api/${ns}/image/update/${id}`, details);
}

export function deletePageImages(ns: Namespace, ids: number[], force = false) {
  type Deleted = Answer<typeof imagesRoutes, '/images/', '$delete'>;
  if (ids.length === 1) return api.delete<Deleted>(`/api/${ns}/images/${ids[0]}`, { force: force ? 1 : 0 });
  return api.delete<Deleted>(`/api/${ns}/images/`, { ids, force: force ? 1 : 0 });
}
