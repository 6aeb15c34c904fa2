// Streaming multipart/form-data (RFC 7578) on busboy. Hono's parseBody()/formData() collect the whole body
// in memory, which a 2 GiB release upload cannot afford: busboy hands each file's bytes on as they arrive
// and pauses the request while a file's consumer is busy, so the pace of the disk write is the pace of the
// network read (back-pressure) and memory stays bounded by a few chunks.
// This wraps busboy's events in a pull loop: parts come one at a time, in order; a file's body must be read
// before the next part is asked for, or it is skipped.
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import busboy from 'busboy';

export class MultipartError extends Error {}

export interface MultipartLimits {
  /** Most parts one body may hold. */
  maxParts: number;
  /** Most bytes one text field may hold (text fields are kept in memory). */
  maxFieldBytes: number;
}

export const DEFAULT_MULTIPART_LIMITS: MultipartLimits = { maxParts: 32, maxFieldBytes: 1024 * 1024 };

/** A part without a file name: its text, whole. */
export interface MultipartField {
  kind: 'field';
  name: string;
  value: string;
}

/** A part with a file name (or typed application/octet-stream): its bytes as they arrive. */
export interface MultipartFile {
  kind: 'file';
  name: string;
  /** The name the browser gave the file; '' when it gave none (an empty file input). */
  filename: string;
  contentType: string;
  /** Read it before asking for the next part, or it is skipped. */
  body: AsyncIterable<Buffer>;
}

export type MultipartPart = MultipartField | MultipartFile;

/** Whether a Content-Type is multipart/form-data with a boundary (anything else deserves a 415). */
export function isMultipartForm(contentType: string | undefined): boolean {
  return contentType !== undefined && /^\s*multipart\/form-data\s*;(.*;)?\s*boundary\s*=\s*\S/i.test(contentType);
}

// busboy's own errors, in the words the 400 answer gives.
const BUSBOY_MESSAGES: Record<string, string> = {
  'Unexpected end of form': 'The upload ended before the form was complete.',
  'Unexpected end of file': 'The upload ended before the form was complete.',
  'Malformed part header': 'The form data is malformed.',
};

/**
 * Yields the parts of a multipart body in order. Throws MultipartError on a malformed body or one past the
 * limits; errors of the underlying stream (a client that went away) pass through unchanged.
 */
export async function* readMultipart(source: ReadableStream<Uint8Array>, contentType: string, limits: Partial<MultipartLimits> = {}): AsyncGenerator<MultipartPart, void, undefined> {
  const { maxParts, maxFieldBytes } = { ...DEFAULT_MULTIPART_LIMITS, ...limits };
  let parser: busboy.Busboy;
  try {
    // One byte over the field limit, so that a field of exactly maxFieldBytes is not marked truncated.
    // UTF-8 for names without a charset: browsers send file names that way. Paths are kept for
    // cleanFileName, which strips them the same way for every upload.
    parser = busboy({ headers: { 'content-type': contentType }, defParamCharset: 'utf8', preservePath: true, limits: { fieldSize: maxFieldBytes + 1 } });
  } catch {
    throw new MultipartError('The form data is malformed.');
  }
  // A file's stream travels beside its part, to skip what the consumer leaves unread.
  const queue: { part: MultipartPart; stream?: Readable }[] = [];
  const state: { failure: unknown; finished: boolean; wake: (() => void) | null; sourceError: unknown } = { failure: undefined, finished: false, wake: null, sourceError: undefined };
  const notify = () => {
    state.wake?.();
    state.wake = null;
  };
  const fail = (error: unknown) => {
    state.failure ??= error;
    notify();
  };
  // The source's own error (a client gone) passes through; anything busboy says becomes a MultipartError.
  const translate = (error: unknown): unknown => {
    if (error === state.sourceError || error instanceof MultipartError || !(error instanceof Error)) return error;
    return new MultipartError(BUSBOY_MESSAGES[error.message] ?? 'The form data is malformed.');
  };
  let parts = 0;
  const count = (): boolean => {
    if (++parts <= maxParts) return true;
    fail(new MultipartError(`A form may have at most ${maxParts} fields.`));
    return false;
  };
  parser.on('file', (name, stream, info) => {
    // A broken form destroys the file being read with busboy's error, perhaps before its consumer listens:
    // the parser reports the same error to the loop below, and the body's iterator still sees it.
    stream.on('error', () => {});
    if (!count()) return void stream.resume();
    queue.push({ part: { kind: 'file', name, filename: info.filename ?? '', contentType: info.mimeType, body: fileBody(stream, translate) }, stream });
    notify();
  });
  parser.on('field', (name, value, info) => {
    if (!count()) return;
    if (info.valueTruncated || Buffer.byteLength(value) > maxFieldBytes) return fail(new MultipartError(`The ${name} field is too large.`));
    queue.push({ part: { kind: 'field', name, value } });
    notify();
  });
  const input = Readable.fromWeb(source as NodeReadableStream<Uint8Array>);
  // Not pipeline(): it would destroy the request on a parser error, closing the socket before the 400 gets
  // out. pipe() only unpipes, which leaves the rest unread for the HTTP layer to drain (briefly) and close.
  input.on('error', (error) => {
    state.sourceError = error;
    // Ends the file being read with the same error, so its consumer stops too.
    parser.destroy(error);
    fail(error);
  });
  parser.on('error', fail);
  parser.on('finish', () => {
    state.finished = true;
    notify();
  });
  input.pipe(parser);

  for (;;) {
    if (state.failure !== undefined) throw translate(state.failure);
    const next = queue.shift();
    if (next) {
      yield next.part;
      // The consumer moved on without reading everything: let the rest of this file flow past.
      if (next.stream && !next.stream.readableEnded) next.stream.resume();
      continue;
    }
    if (state.finished) return;
    await new Promise<void>((resolve) => (state.wake = resolve));
  }
}

/** A file's bytes; leaving the loop early keeps the stream alive so that the rest can still be skipped. */
async function* fileBody(stream: Readable, translate: (error: unknown) => unknown): AsyncGenerator<Buffer, void, undefined> {
  try {
    for await (const chunk of stream.iterator({ destroyOnReturn: false })) yield chunk as Buffer;
  } catch (error) {
    throw translate(error);
  }
}
