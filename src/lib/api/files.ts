// The extra files of a namespace, offered for download with a post (docs/content-api.md, 'Extra files').
import type { extraFilesRoutes } from '../../../server/features/files/routes.ts';
import type { Namespace } from '../../../common/snapshot-types.ts';
import { api } from './request.ts';
import type { Answer } from './route-types.ts';
import { downloadWithProgress, uploadWithProgress } from './transfer.ts';

export type ExtraFile = Answer<typeof extraFilesRoutes, '/', '$get'>['files'][number];

export async function fetchFiles(ns: Namespace): Promise<ExtraFile[]> {
  const answer = await api.get<Answer<typeof extraFilesRoutes, '/', '$get'>>(`/api/${ns}/extrafiles`, { loading: false });
  return answer.files;
}

export function uploadFile(ns: Namespace, file: File, description: string): Promise<Answer<typeof extraFilesRoutes, '/', '$post'>> {
  const form = new FormData();
  // Text before the file: the server streams the file and reads the fields around it.
  form.append('description', description);
  form.append('file', file, file.name);
  return uploadWithProgress('POST', `/api/${ns}/extrafiles`, form, file.name);
}

export function deleteFiles(ns: Namespace, ids: number[]) {
  return api.delete<Answer<typeof extraFilesRoutes, '/', '$delete'>>(`/api/${ns}/extrafiles`, { ids });
}

/** `file` needs only what the page knows: a post's attached file or a library row. */
export function downloadFile(ns: Namespace, file: { id: number; filename: string }): Promise<void> {
  return downloadWithProgress(`/api/${ns}/extrafiles/download`, { id: file.id }, file.filename);
}
