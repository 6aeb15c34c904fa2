// Extra files attached to posts (docs/product/api.md#extra-files): gated, so they live in the store's private
// area (docs/decisions/0003, 0050) under the key private/<route>/<random hex> (on the local disk
// <privateFilesDir>/<route>/<random hex>, as before); the user's name for a file is kept only in the
// database and sent back only in download headers. Uploads stream through the same upload-form reader as
// release files (server/storage/upload-form.ts), so neither is ever held in memory.
import { cleanFileName } from '../../http/byte-range.ts';
import { attachedFileKey, type ObjectStore } from '../../storage/object-store/index.ts';
import { removeQuietly, type ReceivedFile } from '../../storage/receive-upload.ts';
import { newStoredName } from '../../storage/release-files.ts';
import { readUploadForm } from '../../storage/upload-form.ts';

const STORED_NAME = /^[0-9a-f]{32}$/;
const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;
const DESCRIPTION_MAX_BYTES = 64 * 1024;
/** Room beside the file for the description and the multipart framing, for the Content-Length pre-check. */
const FORM_OVERHEAD_BYTES = 2 * DESCRIPTION_MAX_BYTES;

/** The object key of a stored file; null for a stored name we would never have written (a damaged row). */
export function storedFileKey(route: string, storedName: string): string | null {
  return STORED_NAME.test(storedName) ? attachedFileKey(route, storedName) : null;
}

export interface ExtraFileForm {
  description: string | undefined;
  file: (ReceivedFile & { filename: string; mime_type: string }) | null;
}

/**
 * Reads the upload form (`file`, `description`), streaming the file into `tmpDir`. Throws HttpError:
 * 415 for another content type, 413 past `maxFileBytes` (no temp file left), 400 for a broken body.
 * The caller owns the returned temp file: it must move it into place or remove it.
 */
export async function readExtraFileForm(request: Request, options: { tmpDir: string; maxFileBytes: number }): Promise<ExtraFileForm> {
  const form: ExtraFileForm = { description: undefined, file: null };
  const limits = {
    ...options,
    maxFieldBytes: DESCRIPTION_MAX_BYTES,
    overheadBytes: FORM_OVERHEAD_BYTES,
    notMultipartMessage: 'Send the file as multipart/form-data.',
  };
  await readUploadForm(request, limits, async (part, receive) => {
    if (part.kind === 'file' && part.name === 'file' && form.file === null) {
      const received = await receive(part);
      // A browser sends a file input left empty as a part with no name and no bytes: no file.
      if (part.filename === '' && received.size === 0) return removeQuietly(received.tempPath);
      const type = part.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
      form.file = {
        ...received,
        filename: cleanFileName(decodeFormFileName(part.filename)) || 'file',
        mime_type: MIME_TYPE.test(type) ? type : 'application/octet-stream',
      };
    } else if (part.kind === 'field' && part.name === 'description') {
      form.description = part.value;
    }
    // Anything else is skipped unread.
  });
  return form;
}

/**
 * Browsers send a file name in multipart with `"`, CR and LF percent-encoded (HTML's multipart/form-data
 * encoding) and nothing else escaped; undo exactly that, so "a \"b\".pdf" is kept as the user named it.
 */
export function decodeFormFileName(name: string): string {
  return name.replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');
}

/**
 * Puts a received temp file into the store under a fresh random name and returns that name; the temp file
 * is gone afterwards either way. Locally that is the rename of before, the directory fsynced, so the row
 * inserted next never names a file a power cut took back; in a bucket the object exists once this returns.
 */
export async function storeExtraFile(
  storage: ObjectStore,
  route: string,
  received: ReceivedFile & { mime_type: string },
): Promise<{ storedName: string; key: string }> {
  const storedName = newStoredName();
  const key = attachedFileKey(route, storedName);
  await storage.putFile(key, received.tempPath, received.size, { contentType: received.mime_type });
  return { storedName, key };
}

/** Removes stored files; a missing file is fine. Never throws: a leftover file must not fail a delete. */
export async function removeStoredFiles(storage: ObjectStore, route: string, storedNames: Iterable<string>, onError?: (error: unknown) => void): Promise<void> {
  for (const name of storedNames) {
    const key = storedFileKey(route, name);
    if (!key) continue;
    try {
      await storage.delete(key);
    } catch (error) {
      onError?.(error);
    }
  }
}
