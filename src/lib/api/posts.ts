// Posts and sections of a namespace (docs/content-api.md, 'Posts', 'Sections').
import type { postsRoutes } from '../../../server/features/content/routes.ts';
import type { sectionsRoutes } from '../../../server/features/content/routes.ts';
import type { Namespace } from '../../../common/snapshot-types.ts';
import { api } from './request.ts';
import type { Answer } from './route-types.ts';

export type { Namespace };
export type SectionWithPosts = Answer<typeof postsRoutes, '/getposts', '$get'>['sections'][number];
export type Post = SectionWithPosts['posts'][number];
export type Section = Answer<typeof sectionsRoutes, '/getSections', '$get'>['sections'][number];

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

/** Display order as a form holds it (text) to what the API reads: empty means the default, 0. */
export function orderValue(text: string): string | number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed;
}

/** Every section with every post, unpublished ones included (the caller is an admin). */
export async function fetchPosts(ns: Namespace): Promise<SectionWithPosts[]> {
  const answer = await api.get<Answer<typeof postsRoutes, '/getposts', '$get'>>(`/api/${ns}/getposts`, { loading: false });
  return answer.sections;
}

// The store and update handlers answer through shared helpers the compiler cannot follow.
type SavedPost = { message: string; post: Post };

export function savePost(ns: Namespace, id: number | null, input: PostInput): Promise<SavedPost> {
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

export function deletePost(ns: Namespace, post: Pick<Post, 'id' | 'section_id'>) {
  return api.delete<Answer<typeof postsRoutes, '/delete', '$delete'>>(`/api/${ns}/delete`, { id: post.id, section_id: post.section_id });
}

type SavedSection = { message: string; section: Section };

export function saveSection(ns: Namespace, id: number | null, input: SectionInput): Promise<SavedSection> {
  const payload = { title: input.title, order: orderValue(input.order) };
  return id === null ? api.post(`/api/${ns}/section/store`, payload) : api.put(`/api/${ns}/section/update`, { ...payload, id });
}

export function deleteSection(ns: Namespace, id: number, moveTo?: number) {
  const body = moveTo === undefined ? { id } : { id, move_to_section_id: moveTo };
  return api.delete<Answer<typeof sectionsRoutes, '/delete', '$delete'>>(`/api/${ns}/section/delete`, body);
}
