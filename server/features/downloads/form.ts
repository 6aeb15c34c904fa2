// The release form (docs/product/downloads.md#downloads-page, docs/product/messages.md#validation): title, body, release, is_current, downloadable,
// and since issue 25 version, channel, released_at and entitlement as text fields and `file` as a file, sent
// as multipart/form-data. The release-file form (POST /api/downloads/{id}/files) is read by the same reader
// with its own fields: `file`, `platform`, `arch`. The file streams to a temp file while the body is read
// (server/storage/upload-form.ts); the text fields are validated once the whole
// body is in. Whoever calls readReleaseForm owns the temp file it returns and must move or remove it.
import { z } from 'zod';
import { MAX_VERSION_LENGTH, isSemver } from '../../../common/semver.ts';
import { RELEASE_ARCHES, RELEASE_PLATFORMS } from '../../db/schema.ts';
import { ENTITLEMENT_CODE } from '../license-types/index.ts';
import { cleanFileName } from '../../http/byte-range.ts';
import { fieldErrorsFromZod, type FieldErrors } from '../../http/errors.ts';
import { flagFieldOr, optionalFlagField, required, tooLong } from '../../http/fields.ts';
import { removeQuietly, type ReceivedFile } from '../../storage/receive-upload.ts';
import { readUploadForm } from '../../storage/upload-form.ts';

export const RELEASE_TEXT_FIELDS = ['title', 'body', 'release', 'is_current', 'downloadable', 'version', 'channel', 'released_at', 'entitlement'] as const;
export const FILE_TEXT_FIELDS = ['platform', 'arch'] as const;
type TextField = (typeof RELEASE_TEXT_FIELDS)[number] | (typeof FILE_TEXT_FIELDS)[number];

const TEXT_FIELD_MAX_BYTES = 1024 * 1024;
// Room beside the file for the text fields and the multipart framing, for the Content-Length pre-check.
const FORM_OVERHEAD_BYTES = 6 * TEXT_FIELD_MAX_BYTES;
// What FormData.append('file', null | undefined) sends: the client had no file to give.
const NO_FILE_TEXTS = new Set(['', 'null', 'undefined']);

export interface UploadedReleaseFile extends ReceivedFile {
  /** The name offered to downloaders (download_url). */
  filename: string;
}

export interface ReleaseForm {
  fields: Partial<Record<TextField, string>>;
  file: UploadedReleaseFile | null;
  /** Problems with the file part found while reading (reported with the other field errors). */
  fileErrors: string[];
}

export const DOWNLOADABLE_NEEDS_FILE = 'The file field is required when the release is downloadable.';

/**
 * Reads the multipart body. Answers (by throwing HttpError) 415 for another content type, 413 past
 * `maxFileBytes` (with no temp file left), 400 for a malformed or interrupted body.
 */
export async function readReleaseForm(
  request: Request,
  options: { tmpDir: string; maxFileBytes: number; textFields?: readonly TextField[] },
): Promise<ReleaseForm> {
  const { textFields = RELEASE_TEXT_FIELDS, ...sizes } = options;
  const form: ReleaseForm = { fields: {}, file: null, fileErrors: [] };
  const limits = {
    ...sizes,
    maxFieldBytes: TEXT_FIELD_MAX_BYTES,
    overheadBytes: FORM_OVERHEAD_BYTES,
    notMultipartMessage: 'Send the release as multipart/form-data.',
  };
  await readUploadForm(request, limits, async (part, receive) => {
    if (part.kind === 'file' && part.name === 'file') {
      if (form.file) {
        // Left unread: the parser skips it.
        form.fileErrors.push('Only one file may be uploaded.');
        return;
      }
      const received = await receive(part);
      if (part.filename === '' && received.size === 0) {
        // What a browser sends for a file input left empty.
        await removeQuietly(received.tempPath);
        return;
      }
      form.file = { ...received, filename: cleanFileName(part.filename) };
    } else if (part.kind === 'field' && part.name === 'file') {
      if (!NO_FILE_TEXTS.has(part.value.trim())) form.fileErrors.push('The file field must be a file.');
    } else if (part.kind === 'field' && isTextField(part.name, textFields)) {
      form.fields[part.name] = part.value;
    }
    // Any other part is skipped unread.
  });
  if (form.file) {
    if (form.file.size === 0) form.fileErrors.push('The file must not be empty.');
    else if (form.file.filename === '') form.fileErrors.push('The file must have a name.');
  }
  return form;
}

function isTextField(name: string, fields: readonly TextField[]): name is TextField {
  return (fields as readonly string[]).includes(name);
}

/** `YYYY-MM-DD`, optionally with a time and zone, naming a day that exists (Date.parse takes 2026-02-31 for 3 March). */
function isDateText(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(value);
  if (!match || Number.isNaN(Date.parse(value))) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** An empty text field of the form means "not given": the store's default, or unchanged by an update. */
const emptyIsUnset = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const nullWhenEmpty = (value: string) => (value === '' ? null : value);

const releaseFields = {
  title: z
    .string({ error: required('title') })
    .trim()
    .min(1, required('title'))
    .max(255, tooLong('title', 255)),
  body: z.string({ error: 'The body field must be text.' }).max(200_000, tooLong('body', 200_000)),
  // docs/product/downloads.md#downloads-page hides a release of 0; an empty field means that.
  release: z
    .string({ error: 'The release field must be text.' })
    .trim()
    .max(50, tooLong('release', 50))
    .transform((value) => (value === '' ? '0' : value)),
  is_current: optionalFlagField('is current'),
  downloadable: optionalFlagField('downloadable'),
  // docs/updates.md: an empty version takes the release out of the update feeds.
  version: z
    .string({ error: 'The version field must be text.' })
    .trim()
    .max(MAX_VERSION_LENGTH, tooLong('version', MAX_VERSION_LENGTH))
    .refine((value) => value === '' || isSemver(value), 'The version field must be a version like 1.2.3 or 1.3.0-beta.1.')
    .transform(nullWhenEmpty),
  channel: z.preprocess(emptyIsUnset, z.enum(['stable', 'beta'], { error: 'The channel field must be stable or beta.' }).optional()),
  released_at: z.preprocess(
    emptyIsUnset,
    z
      .string({ error: 'The released at field must be a date.' })
      .trim()
      .refine(isDateText, 'The released at field must be a date.')
      .transform((value) => new Date(value).toISOString())
      .optional(),
  ),
  entitlement: z
    .string({ error: 'The entitlement field must be text.' })
    .trim()
    .transform((value) => value.toUpperCase())
    .refine(
      (value) => value === '' || ENTITLEMENT_CODE.test(value),
      'The entitlement field must be a code of 2 to 32 capital letters, digits or _, starting with a letter.',
    )
    .transform(nullWhenEmpty),
};

const storeSchema = z.object({
  title: releaseFields.title,
  body: releaseFields.body.default(''),
  release: releaseFields.release.default('0'),
  is_current: flagFieldOr('is current', 0),
  downloadable: flagFieldOr('downloadable', 0),
  version: releaseFields.version.default(null),
  channel: releaseFields.channel.transform((value) => value ?? 'stable'),
  released_at: releaseFields.released_at,
  entitlement: releaseFields.entitlement.default(null),
});

// An update changes only the fields it sends; the edit form sends them all.
const updateSchema = z.object(releaseFields).partial();

export type StoreReleaseInput = z.output<typeof storeSchema>;
export type UpdateReleaseInput = z.output<typeof updateSchema>;

type Parsed<T> = { ok: true; input: T } | { ok: false; errors: FieldErrors };

export function parseStoreFields(form: ReleaseForm): Parsed<StoreReleaseInput> {
  const result = storeSchema.safeParse(form.fields);
  const errors = fieldErrors(result.success ? undefined : result.error, form.fileErrors);
  if (result.success && result.data.downloadable === 1 && !form.file && !errors.file) errors.file = [DOWNLOADABLE_NEEDS_FILE];
  return result.success && Object.keys(errors).length === 0 ? { ok: true, input: result.data } : { ok: false, errors };
}

export function parseUpdateFields(form: ReleaseForm): Parsed<UpdateReleaseInput> {
  const result = updateSchema.safeParse(form.fields);
  const errors = fieldErrors(result.success ? undefined : result.error, form.fileErrors);
  return result.success && Object.keys(errors).length === 0 ? { ok: true, input: result.data } : { ok: false, errors };
}

function fieldErrors(error: z.ZodError | undefined, fileErrors: string[]): FieldErrors {
  const errors: FieldErrors = error ? fieldErrorsFromZod(error) : {};
  if (fileErrors.length > 0) errors.file = [...fileErrors];
  return errors;
}

const fileFormSchema = z.object({
  platform: z.enum(RELEASE_PLATFORMS, { error: `The platform field must be one of ${RELEASE_PLATFORMS.join(', ')}.` }),
  arch: z.enum(RELEASE_ARCHES, { error: `The arch field must be one of ${RELEASE_ARCHES.join(', ')}.` }),
});

export type ReleaseFileInputFields = z.output<typeof fileFormSchema>;

/** The release-file form: a file (required) and its platform and arch. */
export function parseFileFields(form: ReleaseForm): Parsed<ReleaseFileInputFields & { file: UploadedReleaseFile }> {
  const result = fileFormSchema.safeParse(form.fields);
  const errors = fieldErrors(result.success ? undefined : result.error, form.fileErrors);
  if (!form.file && !errors.file) errors.file = [FILE_REQUIRED];
  return result.success && form.file && Object.keys(errors).length === 0 ? { ok: true, input: { ...result.data, file: form.file } } : { ok: false, errors };
}

export const FILE_REQUIRED = 'The file field is required.';
