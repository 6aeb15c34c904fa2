// The downloads API calls of the admin island (SPEC.md 7 'Downloads'; answers in
// docs/decisions/0008-downloads-api.md). Store and update send multipart form data; with a file they go
// through uploadWithProgress so the loading modal shows the upload's progress (SPEC.md 4 'Upload').
import { api, uploadWithProgress } from '../../lib/api-client.ts';
import type { ReleaseView } from '../../../server/routes/downloads-present.ts';

export type Release = ReleaseView;

/** The form's fields, in the order SPEC.md 5 lists their error slots. */
export const RELEASE_FIELDS = ['title', 'body', 'release', 'is_current', 'downloadable', 'file'] as const;

export interface ReleaseInput {
  title: string;
  body: string;
  release: string;
  is_current: boolean;
  downloadable: boolean;
  /** null keeps the stored file on update. */
  file: File | null;
}

export async function fetchReleases(): Promise<Release[]> {
  const answer = await api.get<{ sections: Release[] }>('/api/downloads/getSections', { loading: false });
  return answer.sections;
}

export function saveRelease(id: number | null, input: ReleaseInput): Promise<{ message: string; release: Release }> {
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

export function deleteRelease(id: number): Promise<{ message: string; id: number }> {
  return api.delete('/api/downloads/delete', { id });
}

/** SPEC.md 2.6: the release number is hidden when it is '0' (or empty). */
export function shownVersion(release: string): string {
  const value = release.trim();
  return value === '0' ? '' : value;
}
