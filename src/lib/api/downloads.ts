// The releases of the downloads page (docs/decisions/0008-downloads-api.md). Store and update send
// multipart form data; with a file they go through uploadWithProgress so the loading modal shows it.
import type { downloadsRoutes } from '../../../server/features/downloads/routes.ts';
import { api } from './request.ts';
import type { Answer } from './route-types.ts';
import { downloadWithProgress, uploadWithProgress } from './transfer.ts';

export type Release = Answer<typeof downloadsRoutes, '/getSections', '$get'>['sections'][number];

export interface ReleaseInput {
  title: string;
  body: string;
  release: string;
  is_current: boolean;
  downloadable: boolean;
  /** null keeps the stored file on update. */
  file: File | null;
}

type SavedRelease = Answer<typeof downloadsRoutes, '/store', '$post'>;

export async function fetchReleases(): Promise<Release[]> {
  const answer = await api.get<Answer<typeof downloadsRoutes, '/getSections', '$get'>>('/api/downloads/getSections', { loading: false });
  return answer.sections;
}

export function saveRelease(id: number | null, input: ReleaseInput): Promise<SavedRelease> {
  const form = new FormData();
  form.append('title', input.title);
  form.append('body', input.body);
  form.append('release', input.release);
  form.append('is_current', input.is_current ? '1' : '0');
  form.append('downloadable', input.downloadable ? '1' : '0');
  // Last: the server reads the text fields whatever their order, but they cost nothing up front.
  if (input.file) form.append('file', input.file, input.file.name);
  const path = id === null ? '/api/downloads/store' : `/api/downloads/update/${id}`;
  return input.file ? uploadWithProgress('POST', path, form, input.file.name) : api.post(path, form);
}

export function deleteRelease(id: number) {
  return api.delete<Answer<typeof downloadsRoutes, '/delete', '$delete'>>('/api/downloads/delete', { id });
}

/** A release's file through the verified-user check, saved under its offered name. */
export function downloadReleaseFile(release: { id: number; filename: string | null }): Promise<void> {
  return downloadWithProgress('/api/downloads/download', { id: release.id }, release.filename || `release-${release.id}`);
}
