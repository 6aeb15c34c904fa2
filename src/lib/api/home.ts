// The home page's sections and their slideshow images (docs/content-api.md, 'Home images').
import type { homeImagesRoutes } from '../../../server/features/home/routes.ts';
import type { homeRoutes } from '../../../server/features/home/routes.ts';
import type { VariantSizes } from '../../../server/features/images/storage.ts';
import { api } from './request.ts';
import { orderValue } from './posts.ts';
import type { Answer } from './route-types.ts';
import { uploadWithProgress } from './transfer.ts';
import { appendDetails, replaceLibraryImageFile, type ImageDetails } from './page-images.ts';

type PresentedImage = Answer<typeof homeImagesRoutes, '/images', '$get'>['images'][number];
type PresentedSection = Answer<typeof homeRoutes, '/getSections', '$get'>['sections'][number];

/** A home image; the server parses its JSON columns into open objects, these are the keys it writes. */
export type HomeImage = Omit<PresentedImage, 'urls' | 'sizes'> & { urls: Partial<Record<'thumb' | 'lg', string>>; sizes: Partial<VariantSizes> };
export type HomeSection = Omit<PresentedSection, 'images'> & { images: HomeImage[] };

export interface HomeSectionInput {
  title: string;
  body: string;
  order: string;
}

type Written<Key extends string, Value> = { message: string } & Record<Key, Value>;

export async function fetchHomeSections(): Promise<HomeSection[]> {
  const answer = await api.get<{ sections: HomeSection[] }>('/api/home/getSections', { loading: false });
  return answer.sections;
}

export function saveHomeSection(id: number | null, input: HomeSectionInput): Promise<Written<'section', HomeSection>> {
  const payload = { title: input.title, body: input.body, order: orderValue(input.order) };
  return id === null ? api.post('/api/home/store', payload) : api.put('/api/home/update', { ...payload, id });
}

export function deleteHomeSection(id: number) {
  return api.delete<Answer<typeof homeRoutes, '/delete', '$delete'>>('/api/home/delete', { id });
}

/** Every home image, assigned or not. */
export async function fetchHomeImages(): Promise<HomeImage[]> {
  const answer = await api.get<{ images: HomeImage[] }>('/api/home/images', { loading: false });
  return answer.images;
}

/** `sectionId` 0 leaves the image unassigned; `details`: the title and alt text asked for at upload. */
export function uploadHomeImage(file: File, sectionId: number, details: ImageDetails | null = null): Promise<Written<'image', HomeImage>> {
  const form = new FormData();
  form.append('home_section_id', String(sectionId));
  appendDetails(form, details);
  form.append('file', file, file.name);
  return uploadWithProgress('POST', '/api/home/store/images', form, file.name);
}

export function saveHomeImageDetails(id: number, details: ImageDetails): Promise<Written<'image', HomeImage>> {
  return api.put('/api/home/images/update', { id, ...details });
}

export function replaceHomeImageFile(id: number, file: File): Promise<{ message: string; image?: HomeImage }> {
  return replaceLibraryImageFile<HomeImage>('home', id, file);
}

export function assignHomeImage(image: Pick<HomeImage, 'id' | 'home_section_id'>, sectionId: number): Promise<Written<'image', HomeImage>> {
  return api.put('/api/home/images/update/section', { id: image.id, home_section_id: sectionId, current_section_id: image.home_section_id });
}

export function deleteHomeImages(ids: number[], force = false) {
  type Deleted = Answer<typeof homeImagesRoutes, '/delete/image', '$delete'>;
  if (ids.length === 1) return api.delete<Deleted>('/api/home/delete/image', { id: ids[0], force: force ? 1 : 0 });
  return api.delete<Deleted>('/api/home/images/', { ids, force: force ? 1 : 0 });
}
