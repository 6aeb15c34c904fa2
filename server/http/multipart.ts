// A streaming multipart/form-data reader (RFC 7578). Hono's parseBody()/formData() collect the whole body
// in memory, which a 2 GiB release upload cannot afford: this reads the request stream chunk by chunk and
// hands each part's body on as it arrives, so memory stays bounded by one chunk plus a boundary's length.
// Parts come one at a time: a part's body must be read (or is skipped) before the next part appears, which
// is also what makes the pace of the disk write the pace of the network read (back-pressure).

export class MultipartError extends Error {}

export interface MultipartLimits {
  /** Most bytes one part's header block may take. */
  maxHeaderBytes: number;
  /** Most parts one body may hold. */
  maxParts: number;
}

export const DEFAULT_MULTIPART_LIMITS: MultipartLimits = { maxHeaderBytes: 16 * 1024, maxParts: 32 };

export interface MultipartPart {
  /** The form field's name. */
  name: string;
  /** Set (possibly to '') only for file fields: the name the browser gave the file. */
  filename: string | undefined;
  contentType: string;
  /** The part's bytes as they arrive. Read it before asking for the next part, or it is skipped. */
  body: AsyncGenerator<Buffer, void, undefined>;
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
const DASH_DASH = Buffer.from('--');
const MAX_EPILOGUE_BYTES = 64 * 1024;

/** The boundary of a `multipart/form-data` Content-Type, or undefined when the type is anything else. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const [type = '', ...params] = contentType.split(';');
  if (type.trim().toLowerCase() !== 'multipart/form-data') return undefined;
  for (const param of params) {
    const separator = param.indexOf('=');
    if (separator < 0 || param.slice(0, separator).trim().toLowerCase() !== 'boundary') continue;
    let value = param.slice(separator + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    // RFC 2046: 1 to 70 characters.
    return value.length >= 1 && value.length <= 70 ? value : undefined;
  }
  return undefined;
}

/** Pulls bytes from a web stream into one growing window that the parser consumes from the front. */
class ByteWindow {
  buffer: Buffer;
  ended = false;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(reader: ReadableStreamDefaultReader<Uint8Array>, initial: Buffer) {
    this.reader = reader;
    this.buffer = initial;
  }

  /** Appends the next chunk; false at the end of the stream. */
  async more(): Promise<boolean> {
    if (this.ended) return false;
    const { done, value } = await this.reader.read();
    if (done) {
      this.ended = true;
      return false;
    }
    const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    return true;
  }

  consume(length: number): void {
    this.buffer = this.buffer.subarray(length);
  }
}

/**
 * Yields the parts of a multipart body in order. Throws MultipartError on a malformed body or one past the
 * limits; errors of the underlying stream (a client that went away) pass through unchanged.
 */
export async function* readMultipart(source: ReadableStream<Uint8Array>, boundary: string, limits: MultipartLimits = DEFAULT_MULTIPART_LIMITS): AsyncGenerator<MultipartPart, void, undefined> {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const reader = source.getReader();
  // The first boundary has no CRLF before it; starting the window with one lets one search find them all.
  const window = new ByteWindow(reader, Buffer.from(CRLF));
  let finished = false;
  try {
    // Skip the preamble up to the first delimiter.
    await skipPast(window, delimiter, 'The form data has no parts.');
    for (let count = 0; ; count++) {
      if (await atCloseDelimiter(window)) break;
      if (count >= limits.maxParts) throw new MultipartError(`A form may have at most ${limits.maxParts} fields.`);
      const headers = await readHeaderBlock(window, limits.maxHeaderBytes);
      const disposition = parseDisposition(headers.get('content-disposition'));
      let exhausted = false;
      const body = (async function* partBody(): AsyncGenerator<Buffer, void, undefined> {
        for (;;) {
          const at = window.buffer.indexOf(delimiter);
          if (at >= 0) {
            if (at > 0) yield window.buffer.subarray(0, at);
            window.consume(at + delimiter.length);
            exhausted = true;
            return;
          }
          // Keep a tail that could be the start of a delimiter split across chunks.
          const safe = window.buffer.length - (delimiter.length - 1);
          if (safe > 0) {
            const out = window.buffer.subarray(0, safe);
            window.consume(safe);
            yield out;
          }
          if (!(await window.more())) throw new MultipartError('The upload ended before the form was complete.');
        }
      })();
      yield { name: disposition.name, filename: disposition.filename, contentType: headers.get('content-type') ?? 'text/plain', body };
      // The consumer moved on without reading everything: skip the rest of this part.
      if (!exhausted) await skipPast(window, delimiter, 'The upload ended before the form was complete.');
    }
    finished = true;
  } finally {
    // Read a short epilogue (usually one CRLF) so the request counts as fully read. On an error the rest
    // is left unread on purpose: cancelling would destroy the socket before the error answer gets out,
    // while the HTTP layer drains (briefly) and closes the connection once the answer is sent.
    if (finished) {
      let epilogue = window.buffer.length;
      while (epilogue <= MAX_EPILOGUE_BYTES && (await window.more().catch(() => false))) {
        epilogue += window.buffer.length;
        window.consume(window.buffer.length);
      }
    }
    reader.releaseLock();
  }
}

/** Collects a (text) part into a string, refusing more than maxBytes. */
export async function readPartText(part: MultipartPart, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of part.body) {
    size += chunk.length;
    if (size > maxBytes) throw new MultipartError(`The ${part.name} field is too large.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function skipPast(window: ByteWindow, needle: Buffer, messageAtEnd: string): Promise<void> {
  for (;;) {
    const at = window.buffer.indexOf(needle);
    if (at >= 0) return window.consume(at + needle.length);
    window.consume(Math.max(0, window.buffer.length - (needle.length - 1)));
    if (!(await window.more())) throw new MultipartError(messageAtEnd);
  }
}

/** After a delimiter: `--` ends the body; otherwise optional padding then CRLF (left in place) starts a part. */
async function atCloseDelimiter(window: ByteWindow): Promise<boolean> {
  while (window.buffer.length < 2) if (!(await window.more())) throw new MultipartError('The upload ended before the form was complete.');
  if (window.buffer.subarray(0, 2).equals(DASH_DASH)) return true;
  // RFC 2046 allows linear white space after a boundary before its CRLF.
  for (;;) {
    const at = window.buffer.indexOf(CRLF);
    const scanned = at >= 0 ? at : window.buffer.length;
    if (!/^[ \t]*$/.test(window.buffer.subarray(0, scanned).toString('latin1'))) throw new MultipartError('The form data is malformed.');
    if (at >= 0) {
      window.consume(at);
      return false;
    }
    if (scanned > 256 || !(await window.more())) throw new MultipartError('The form data is malformed.');
  }
}

/** Reads `CRLF headers CRLF CRLF`; the window starts at the CRLF that ended the delimiter line. */
async function readHeaderBlock(window: ByteWindow, maxBytes: number): Promise<Map<string, string>> {
  for (;;) {
    // Searching from 0 finds an empty header block too: the delimiter's CRLF is followed by CRLF at once.
    const end = window.buffer.indexOf(HEADER_END);
    if (end >= 0) {
      const block = window.buffer.subarray(CRLF.length, Math.max(CRLF.length, end)).toString('utf8');
      window.consume(end + HEADER_END.length);
      return parseHeaders(block);
    }
    if (window.buffer.length > maxBytes) throw new MultipartError('A form field has too large a header.');
    if (!(await window.more())) throw new MultipartError('The upload ended before the form was complete.');
  }
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  if (block === '') return headers;
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new MultipartError('The form data is malformed.');
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** `form-data; name="x"; filename="y"` (quoted or token values, and RFC 5987 `filename*`). */
export function parseDisposition(value: string | undefined): { name: string; filename: string | undefined } {
  if (!value) throw new MultipartError('A form field has no Content-Disposition.');
  const params = new Map<string, string>();
  const pattern = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  const [type = ''] = value.split(';');
  if (type.trim().toLowerCase() !== 'form-data') throw new MultipartError('A part is not form data.');
  for (const match of value.matchAll(pattern)) {
    const key = (match[1] ?? '').toLowerCase();
    const raw = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? '').trim();
    params.set(key, raw);
  }
  const name = params.get('name');
  if (name === undefined) throw new MultipartError('A form field has no name.');
  let filename = params.get('filename');
  const extended = params.get('filename*');
  if (extended !== undefined) {
    const match = /^utf-8'[^']*'(.*)$/i.exec(extended);
    if (match) {
      try {
        filename = decodeURIComponent(match[1] ?? '');
      } catch {
        // A broken extended value: keep the plain filename.
      }
    }
  }
  return { name, filename };
}
