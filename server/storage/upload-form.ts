// The frame around every streamed upload form (releases, extra files): the checks before reading, the
// parts handed on one by one with a way to stream a file to a temp file, and the answers for what goes
// wrong while reading, with no temp file left behind (docs/decisions/0018 on a full disk).
import { HttpError } from '../http/errors.ts';
import { isMultipartForm, MultipartError, readMultipart, type MultipartFile, type MultipartPart } from '../http/multipart.ts';
import { receiveToTempFile, removeQuietly, UploadTooLargeError, type ReceivedFile } from './receive-upload.ts';

export interface UploadFormOptions {
  tmpDir: string;
  maxFileBytes: number;
  /** Most bytes of one text field. */
  maxFieldBytes: number;
  /** Room beside the file for the text fields and the multipart framing, for the Content-Length pre-check. */
  overheadBytes: number;
  /** The 415 answer's message for a body that is not multipart/form-data. */
  notMultipartMessage: string;
}

/** Streams a file part into a new temp file in the form's tmpDir, within the form's limit. */
export type ReceiveFile = (file: MultipartFile) => Promise<ReceivedFile>;

/**
 * Hands each part of the form to `onPart`, in order. Throws HttpError: 415 for another content type, 413
 * past `maxFileBytes`, 400 for a malformed or interrupted body; on any failure every temp file received
 * so far is removed. After success the caller owns the temp files it kept (removing one twice is fine).
 */
export async function readUploadForm(
  request: Request,
  options: UploadFormOptions,
  onPart: (part: MultipartPart, receive: ReceiveFile) => Promise<void>,
): Promise<void> {
  const contentType = request.headers.get('content-type') ?? undefined;
  if (!isMultipartForm(contentType)) throw new HttpError(415, options.notMultipartMessage);
  // Connection: close, so that the rest of a refused upload is not read in vain.
  const tooLarge = () => new HttpError(413, new UploadTooLargeError(options.maxFileBytes).message, undefined, { Connection: 'close' });
  // Refuse an announced oversize body before reading a byte of it.
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > options.maxFileBytes + options.overheadBytes) throw tooLarge();
  if (!request.body) return;

  const received: string[] = [];
  const receive: ReceiveFile = async (file) => {
    const done = await receiveToTempFile(file.body, { tmpDir: options.tmpDir, maxBytes: options.maxFileBytes });
    received.push(done.tempPath);
    return done;
  };
  try {
    for await (const part of readMultipart(request.body, contentType as string, { maxFieldBytes: options.maxFieldBytes })) await onPart(part, receive);
  } catch (error) {
    for (const file of received) await removeQuietly(file);
    if (error instanceof UploadTooLargeError) throw tooLarge();
    if (error instanceof MultipartError) throw new HttpError(400, error.message);
    if (request.signal.aborted) throw new HttpError(400, 'The upload was interrupted.');
    throw error;
  }
}

export const FILE_NOT_SELECTED = 'File not selected';

export function fileNotSelected(): HttpError {
  return new HttpError(422, FILE_NOT_SELECTED, { file: [FILE_NOT_SELECTED] });
}
