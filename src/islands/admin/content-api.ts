// The content API calls of the admin overlay (SPEC.md 7 'Content', 'Extra files', 'Images', 'Home'), with
// the answers docs/content-api.md documents. The shapes are written out here rather than imported from
// the server: the server's row types hold the JSON columns as strings, the answers as objects.
import { api, downloadWithProgress, uploadWithProgress } from '../../lib/api-client.ts';
import type { Namespace } from '../../lib/snapshot-types.ts';

export type { Namespace };

export interface AttachedFile {
  id: number;
  filename: string;
  description: string;
  size: number;
}

export interface Post {
  id: number;
  namespace: Namespace;
  section_id: number;
  title: string;
  title_slug: string;
  body: string;
  published: number;
  display_order: number;
  uploaded_file_id: number | null;
  created_at: string;
  updated_at: string;
  created_at_diff: string;
  section: { id: number; title: string; title_slug: string; order: number } | null;
  uploaded_file: AttachedFile | null;
  user: { name: string; role: string; email_verified_at: string | null } | null;
}

export interface Section {
  id: number;
  namespace: Namespace;
  title: string;
  title_slug: string;
  order: number;
  created_at: string;
  updated_at: string;
}

export interface SectionWithPosts extends Section {
  posts: Post[];
}

export interface PostInput {
  title: string;
  body: string;
  section_id: number | null;
  uploaded_file_id: number | null;
  published: boolean;
  display_order: string;
}

export interface SectionInput {
  title: string;
  order: string;
}

/** A page image or video item (`image_url` and `sizes` arrive as objects). */
export interface PageImage {
  id: number;
  title: string;
  alt: string;
  image_url: Partial<Record<'thumb' | 'image' | 'lg' | 'fallback' | 'video', string>>;
  sizes: Partial<Record<string, { width: number; height: number }>>;
  is_video: number;
  created_at: string;
}

export interface HomeImage {
  id: number;
  title: string;
  alt: string;
  urls: Partial<Record<'thumb' | 'lg', string>>;
  sizes: Partial<Record<string, { width: number; height: number }>>;
  home_section_id: number;
  order: number;
}

export interface HomeSection {
  id: number;
  title: string;
  body: string;
  order: number;
  updated_at: string;
  images: HomeImage[];
}

export interface HomeSectionInput {
  title: string;
  body: string;
  order: string;
}

export interface ExtraFile {
  id: number;
  filename: string;
  description: string;
  mime_type: string;
  size: number;
  created_at: string;
  posts: { id: number; title: string; title_slug: string; published: number }[];
}

/** A refused image delete (409) lists where each image is still shown. */
export interface ImageUsageReport {
  id: number;
  message: string;
  used_in?: { posts: { id: number; namespace: string; title: string; published: number }[]; home_sections: { id: number; title: string }[] };
}

interface Message {
  message: string;
}

/** Display order as the form holds it (text) to what the API reads: empty means the default, 0. */
function orderValue(text: string): string | number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed;
}

// ---------- Posts and sections ----------

/** Every section with every post, unpublished ones included (the caller is an admin). */
export async function fetchPosts(ns: Namespace): Promise<SectionWithPosts[]> {
  const answer = await api.get<{ sections: SectionWithPosts[] }>(`/api/${ns}/getposts`, { loading: false });
  return answer.sections;
}

export function savePost(ns: Namespace, id: number | null, input: PostInput): Promise<Message & { post: Post }> {
  const payload = {
    title: input.title,
    body: input.body,
    section_id: input.section_id,
    uploaded_file_id: input.uploaded_file_id,
    published: input.published ? 1 : 0,
    display_order: orderValue(input.display_order),
  };
  return id === null ? api.post(`/api/${ns}/store`, payload) : api.put(`/api/${ns}/update`, { ...payload, id });
}

export function deletePost(ns: Namespace, post: Pick<Post, 'id' | 'section_id'>): Promise<Message & { id: number; section_id: number }> {
  return api.delete(`/api/${ns}/delete`, { id: post.id, section_id: post.section_id });
}

export function saveSection(ns: Namespace, id: number | null, input: SectionInput): Promise<Message & { section: Section }> {
  const payload = { title: input.title, order: orderValue(input.order) };
  return id === null ? api.post(`/api/${ns}/section/store`, payload) : api.put(`/api/${ns}/section/update`, { ...payload, id });
}

export function deleteSection(ns: Namespace, id: number, moveTo?: number): Promise<Message & { id: number; moved_posts: number }> {
  return api.delete(`/api/${ns}/section/delete`, moveTo === undefined ? { id } : { id, move_to_section_id: moveTo });
}

// ---------- Page images (per namespace) ----------

export async function fetchPageImages(ns: Namespace): Promise<PageImage[]> {
  const answer = await api.get<{ images: PageImage[] }>(`/api/${ns}/images`, { loading: false });
  return answer.images;
}

export function uploadPageImage(ns: Namespace, file: File): Promise<Message & { image: PageImage }> {
  const form = new FormData();
  form.append('file', file, file.name);
  return uploadWithProgress('POST', `/api/${ns}/images`, form, file.name);
}

export function addVideo(ns: Namespace, videoUrl: string): Promise<Message & { image: PageImage }> {
  return api.post(`/api/${ns}/images`, { video_url: videoUrl });
}

/** Replaces an image's file (page or home library: the generic path serves both). */
export function replaceImageFile(route: Namespace, id: number, file: File): Promise<Message & { image?: PageImage }>;
export function replaceImageFile(route: 'home', id: number, file: File): Promise<Message & { image?: HomeImage }>;
export function replaceImageFile(route: Namespace | 'home', id: number, file: File): Promise<Message & { image?: PageImage | HomeImage }> {
  const form = new FormData();
  form.append('file', file, file.name);
  return uploadWithProgress('POST', `/api/${route}/image/update-image/${id}`, form, file.name);
}

export function savePageImageDetails(ns: Namespace, id: number, details: { title: string; alt: string }): Promise<Message & { image: PageImage }> {
  return api.put(`/api/${ns}/image/update/${id}`, details);
}

export function deletePageImages(ns: Namespace, ids: number[], force = false): Promise<Message & { ids: number[] }> {
  if (ids.length === 1) return api.delete(`/api/${ns}/images/${ids[0]}`, { force: force ? 1 : 0 });
  return api.delete(`/api/${ns}/images/`, { ids, force: force ? 1 : 0 });
}

// ---------- Extra files ----------

export async function fetchFiles(ns: Namespace): Promise<ExtraFile[]> {
  const answer = await api.get<{ files: ExtraFile[] }>(`/api/${ns}/extrafiles`, { loading: false });
  return answer.files;
}

export function uploadFile(ns: Namespace, file: File, description: string): Promise<Message & { file: ExtraFile }> {
  const form = new FormData();
  // Text before the file: the server streams the file and reads the fields around it.
  form.append('description', description);
  form.append('file', file, file.name);
  return uploadWithProgress('POST', `/api/${ns}/extrafiles`, form, file.name);
}

export function deleteFiles(ns: Namespace, ids: number[]): Promise<Message & { ids: number[] }> {
  return api.delete(`/api/${ns}/extrafiles`, { ids });
}

export function downloadFile(ns: Namespace, file: Pick<ExtraFile, 'id' | 'filename'>): Promise<void> {
  return downloadWithProgress(`/api/${ns}/extrafiles/download`, { id: file.id }, file.filename);
}

// ---------- Home ----------

export async function fetchHomeSections(): Promise<HomeSection[]> {
  const answer = await api.get<{ sections: HomeSection[] }>('/api/home/getSections', { loading: false });
  return answer.sections;
}

export function saveHomeSection(id: number | null, input: HomeSectionInput): Promise<Message & { section: HomeSection }> {
  const payload = { title: input.title, body: input.body, order: orderValue(input.order) };
  return id === null ? api.post('/api/home/store', payload) : api.put('/api/home/update', { ...payload, id });
}

export function deleteHomeSection(id: number): Promise<Message & { id: number }> {
  return api.delete('/api/home/delete', { id });
}

/** Every home image, assigned or not. */
export async function fetchHomeImages(): Promise<HomeImage[]> {
  const answer = await api.get<{ images: HomeImage[] }>('/api/home/images', { loading: false });
  return answer.images;
}

export function uploadHomeImage(file: File, sectionId: number): Promise<Message & { image: HomeImage }> {
  const form = new FormData();
  form.append('home_section_id', String(sectionId));
  form.append('file', file, file.name);
  return uploadWithProgress('POST', '/api/home/store/images', form, file.name);
}

export function saveHomeImageDetails(id: number, details: { title: string; alt: string }): Promise<Message & { image: HomeImage }> {
  return api.put('/api/home/images/update', { id, ...details });
}

export function assignHomeImage(image: Pick<HomeImage, 'id' | 'home_section_id'>, sectionId: number): Promise<Message & { image: HomeImage }> {
  return api.put('/api/home/images/update/section', { id: image.id, home_section_id: sectionId, current_section_id: image.home_section_id });
}

export function deleteHomeImages(ids: number[], force = false): Promise<Message & { ids: number[] }> {
  if (ids.length === 1) return api.delete('/api/home/delete/image', { id: ids[0], force: force ? 1 : 0 });
  return api.delete('/api/home/images/', { ids, force: force ? 1 : 0 });
}
