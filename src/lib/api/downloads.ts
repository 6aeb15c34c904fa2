// The releases of the downloads page (docs/decisions/0008-downloads-api.md) and, since issue 25, their
// versions, channels, entitlement gates and files per platform, the admin's download statistics and the
// signed-in user's "My software". Store and update send multipart form data; with a file they go through
// uploadWithProgress so the loading modal shows it, as does adding a file to a release.
import type { ReleaseArch, ReleasePlatform } from '../../../server/db/schema.ts';
import type { downloadsRoutes } from '../../../server/features/downloads/routes.ts';
import type { updatesFeature } from '../../../server/features/updates/routes.ts';
import { api } from './request.ts';
import type { Answer } from './route-types.ts';
import { downloadWithProgress, uploadWithProgress } from './transfer.ts';

/** A release as getSections, the release's own answer and store/update carry it, files included (issue 25). */
export type Release = Answer<typeof downloadsRoutes, '/getSections', '$get'>['sections'][number];
/** One file of a release; `url` is its gated GET /api/downloads/file/{id}/{fileId}. Oldest first: files[0] is the first file. */
export type ReleaseFile = Release['files'][number];
export type ReleaseChannel = Release['channel'];
export type { ReleaseArch, ReleasePlatform };

export interface ReleaseInput {
  title: string;
  body: string;
  release: string;
  is_current: boolean;
  downloadable: boolean;
  /** Semver MAJOR.MINOR.PATCH[-pre]; '' for none. */
  version: string;
  channel: ReleaseChannel;
  /** YYYY-MM-DD; '' lets a new release take today. */
  released_at: string;
  /** An entitlement code; '' for none. */
  entitlement: string;
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
  // Empty means none: an edit that clears the version or the entitlement must say so.
  form.append('version', input.version.trim());
  form.append('channel', input.channel);
  form.append('entitlement', input.entitlement.trim());
  if (input.released_at) form.append('released_at', input.released_at);
  // Last: the server reads the text fields whatever their order, but they cost nothing up front.
  if (input.file) form.append('file', input.file, input.file.name);
  const path = id === null ? '/api/downloads/store' : `/api/downloads/update/${id}`;
  return input.file ? uploadWithProgress('POST', path, form, input.file.name) : api.post(path, form);
}

export function deleteRelease(id: number) {
  return api.delete<Answer<typeof downloadsRoutes, '/delete', '$delete'>>('/api/downloads/delete', { id });
}

export interface ReleaseFileInput {
  /** null sends none: the server then names the missing field. */
  file: File | null;
  platform: ReleasePlatform;
  arch: ReleaseArch;
}

/** POST /api/downloads/{id}/files: one more file for a release, with the upload's progress. */
export function addReleaseFile(releaseId: number, input: ReleaseFileInput): Promise<Answer<typeof downloadsRoutes, '/:id{[0-9]+}/files', '$post'>> {
  const form = new FormData();
  form.append('platform', input.platform);
  form.append('arch', input.arch);
  if (input.file) form.append('file', input.file, input.file.name);
  return uploadWithProgress('POST', `/api/downloads/${releaseId}/files`, form, input.file?.name ?? 'file');
}

export function deleteReleaseFile(releaseId: number, fileId: number) {
  return api.delete<Answer<typeof downloadsRoutes, '/:id{[0-9]+}/files/:fileId{[0-9]+}', '$delete'>>(`/api/downloads/${releaseId}/files/${fileId}`);
}

/** A release's file through the verified-user check, saved under its offered name. */
export function downloadReleaseFile(release: { id: number; filename: string | null; fileUrl?: string | undefined }): Promise<void> {
  const name = release.filename || `release-${release.id}`;
  // One file of several: its own gated GET (same rules, issue 25 item 3); the release's first file keeps the POST.
  if (release.fileUrl) return downloadWithProgress(release.fileUrl, undefined, name);
  return downloadWithProgress('/api/downloads/download', { id: release.id }, name);
}

/**
 * GET /api/admin/downloads/stats (issue 25, item 5): downloads by version and platform, update checks by
 * version, and the share of checks on the newest version (0..100, null without checks).
 */
export type DownloadStats = Answer<typeof updatesFeature, '/api/admin/downloads/stats', '$get'>;

export const fetchDownloadStats = (days: number) => api.get<DownloadStats>(`/api/admin/downloads/stats?days=${days}`, { loading: false });

type SoftwareAnswer = Answer<typeof updatesFeature, '/api/user/software', '$get'>;
/**
 * One license's software (GET /api/user/software, issue 25 item 6): its type and status, its entitlements
 * and those in words, its maintenance end, the newest release it lets the user download (`latest`, with
 * `notes_html` rendered by the site's markdown pipeline), the older ones, and the newest it may not have
 * (`blocked`, with the refusal's code and message in words).
 */
export type SoftwareLicense = SoftwareAnswer['licenses'][number];
export type SoftwareRelease = NonNullable<SoftwareLicense['latest']>;

export const fetchOwnSoftware = () => api.get<SoftwareAnswer>('/api/user/software', { loading: false });

/** The ids of the releases any of the user's licenses lets them download. */
export function downloadableReleaseIds(licenses: readonly SoftwareLicense[]): Set<number> {
  const ids = new Set<number>();
  for (const license of licenses) for (const release of [...(license.latest ? [license.latest] : []), ...license.older]) ids.add(release.id);
  return ids;
}
