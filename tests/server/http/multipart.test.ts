// The streaming multipart reader (busboy behind a pull loop): same answer as the platform's own encoder,
// however the bytes are cut into chunks, including bodies that contain near-boundaries.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMultipartForm, MultipartError, readMultipart, type MultipartLimits, type MultipartPart } from '../../../server/http/multipart.ts';

interface ParsedPart {
  name: string;
  filename: string | undefined;
  contentType: string;
  data: Buffer;
}

async function encode(form: FormData): Promise<{ bytes: Buffer; boundary: string; contentType: string }> {
  const response = new Response(form);
  const contentType = response.headers.get('content-type') ?? '';
  const boundary = /boundary=(.+)$/.exec(contentType)?.[1];
  if (!boundary) throw new Error('no boundary');
  return { bytes: Buffer.from(await response.arrayBuffer()), boundary, contentType };
}

const typeOf = (boundary: string) => `multipart/form-data; boundary=${boundary}`;

/** A stream that delivers `bytes` in chunks of the given sizes (cycled). */
function chunked(bytes: Buffer, sizes: number[] = [bytes.length || 1]): ReadableStream<Uint8Array> {
  let offset = 0;
  let turn = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      const size = Math.max(1, sizes[turn++ % sizes.length] ?? 1);
      controller.enqueue(new Uint8Array(bytes.subarray(offset, offset + size)));
      offset += size;
    },
  });
}

async function parseAll(stream: ReadableStream<Uint8Array>, boundary: string, limits?: Partial<MultipartLimits>): Promise<ParsedPart[]> {
  const parts: ParsedPart[] = [];
  for await (const part of readMultipart(stream, typeOf(boundary), limits)) {
    if (part.kind === 'field') {
      parts.push({ name: part.name, filename: undefined, contentType: 'text/plain', data: Buffer.from(part.value) });
      continue;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of part.body) chunks.push(Buffer.from(chunk));
    parts.push({ name: part.name, filename: part.filename, contentType: part.contentType, data: Buffer.concat(chunks) });
  }
  return parts;
}

const valueOf = (part: MultipartPart) => (part.kind === 'field' ? part.value : '(a file)');

describe('isMultipartForm', () => {
  it('accepts multipart/form-data with a boundary only', () => {
    expect(isMultipartForm('multipart/form-data; boundary=abc')).toBe(true);
    expect(isMultipartForm('Multipart/Form-Data; charset=utf-8; boundary="a b"')).toBe(true);
    expect(isMultipartForm('application/json')).toBe(false);
    expect(isMultipartForm('multipart/form-data')).toBe(false);
    expect(isMultipartForm('multipart/mixed; boundary=abc')).toBe(false);
    expect(isMultipartForm(undefined)).toBe(false);
  });
});

describe('file names', () => {
  const named = async (disposition: string) => {
    const body = Buffer.from(`--B\r\nContent-Disposition: ${disposition}\r\n\r\nx\r\n--B--\r\n`);
    return (await parseAll(chunked(body), 'B')).map((p) => [p.name, p.filename]);
  };

  it('reads quoted, escaped and RFC 8187 names, UTF-8 by default, paths kept for cleanFileName', async () => {
    expect(await named('form-data; name="title"')).toEqual([['title', undefined]]);
    expect(await named('form-data; name="file"; filename="a \\"b\\".zip"')).toEqual([['file', 'a "b".zip']]);
    expect(await named("form-data; name=file; filename=plain.txt; filename*=UTF-8''%C3%A9t%C3%A9.zip")).toEqual([['file', 'été.zip']]);
    expect(await named('form-data; name="file"; filename="été.zip"')).toEqual([['file', 'été.zip']]);
    expect(await named('form-data; name="file"; filename="C:\\fake\\a.exe"')).toEqual([['file', 'C:\\fake\\a.exe']]);
  });

  it('skips parts that are not form data', async () => {
    expect(await named('attachment; name="x"')).toEqual([]);
  });
});

describe('readMultipart', () => {
  it('gives back what FormData encoded, in order, with file names and types', async () => {
    const form = new FormData();
    form.append('title', 'Dimensional Inspector 4');
    form.append('body', 'line one\r\nline two\r\n--not a boundary');
    form.append('file', new File([Buffer.from('binary\0data\r\n')], 'installer é.exe', { type: 'application/x-msdownload' }));
    form.append('release', '');
    const { bytes, boundary } = await encode(form);
    const parts = await parseAll(chunked(bytes), boundary);
    expect(parts.map((p) => [p.name, p.filename, p.data.toString('utf8')])).toEqual([
      ['title', undefined, 'Dimensional Inspector 4'],
      ['body', undefined, 'line one\r\nline two\r\n--not a boundary'],
      ['file', 'installer é.exe', 'binary\0data\r\n'],
      ['release', undefined, ''],
    ]);
    expect(parts[2]?.contentType).toBe('application/x-msdownload');
  });

  it('finds the same parts however the body is cut into chunks (near-boundaries in the data)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'file'), fc.uint8Array({ maxLength: 300 })), { minLength: 1, maxLength: 5 }),
        fc.array(fc.integer({ min: 1, max: 97 }), { minLength: 1, maxLength: 8 }),
        async (fields, sizes) => {
          const form = new FormData();
          const probe = await encode(new FormData());
          const nearBoundary = Buffer.from(`\r\n--${probe.boundary.slice(0, -1)}`);
          // Binary data goes in as files: FormData would rewrite line breaks in text values.
          const expected = fields.map(([name, data]) => {
            const value = Buffer.concat([Buffer.from(data), nearBoundary, Buffer.from(data)]);
            form.append(name, new File([value], 'f.bin'));
            return value;
          });
          const { bytes, boundary } = await encode(form);
          const parts = await parseAll(chunked(bytes, sizes), boundary);
          expect(parts.map((p) => p.data)).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('skips a part the consumer does not read', async () => {
    const form = new FormData();
    form.append('skipped', new File([Buffer.alloc(10_000, 7)], 'big.bin'));
    form.append('kept', 'yes');
    const { bytes, boundary } = await encode(form);
    const seen: string[] = [];
    for await (const part of readMultipart(chunked(bytes, [333]), typeOf(boundary))) {
      if (part.name === 'kept') seen.push(valueOf(part));
    }
    expect(seen).toEqual(['yes']);
  });

  it('skips a part whose reading was abandoned half way', async () => {
    const form = new FormData();
    form.append('file', new File([Buffer.alloc(10_000, 7)], 'big.bin'));
    form.append('kept', 'yes');
    const { bytes, boundary } = await encode(form);
    const seen: string[] = [];
    for await (const part of readMultipart(chunked(bytes, [1000]), typeOf(boundary))) {
      if (part.kind === 'field') seen.push(part.value);
      else for await (const _chunk of part.body) break;
    }
    expect(seen).toEqual(['yes']);
  });

  it('accepts a preamble and ignores the epilogue', async () => {
    const body = Buffer.from('preamble\r\n--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--XyZ--\r\nepilogue');
    const parts = await parseAll(chunked(body, [5]), 'XyZ');
    expect(parts.map((p) => [p.name, p.data.toString()])).toEqual([['a', '1']]);
  });

  it('refuses a truncated body, a body without parts, and too many parts', async () => {
    const truncated = Buffer.from('--B\r\nContent-Disposition: form-data; name="a"\r\n\r\nsome data that never ends');
    await expect(parseAll(chunked(truncated), 'B')).rejects.toThrow(MultipartError);
    const truncatedFile = Buffer.from('--B\r\nContent-Disposition: form-data; name="f"; filename="x"\r\n\r\nsome data that never ends');
    await expect(parseAll(chunked(truncatedFile), 'B')).rejects.toThrow('The upload ended before the form was complete.');
    await expect(parseAll(chunked(Buffer.from('no parts at all')), 'B')).rejects.toThrow(MultipartError);
    const headerless = Buffer.from('--B\r\nno colon here\r\n\r\nx\r\n--B--');
    await expect(parseAll(chunked(headerless), 'B')).rejects.toThrow(MultipartError);
  });

  it('refuses more parts than the limit', async () => {
    const form = new FormData();
    for (let i = 0; i < 5; i++) form.append(`f${i}`, 'x');
    const { bytes, boundary } = await encode(form);
    await expect(parseAll(chunked(bytes), boundary, { maxParts: 4 })).rejects.toThrow(/at most 4/);
    await expect(parseAll(chunked(bytes), boundary, { maxParts: 5 })).resolves.toHaveLength(5);
  });

  it('refuses an oversized header block (over 16 KiB) without waiting for its end', async () => {
    const body = Buffer.concat([Buffer.from('--B\r\nContent-Disposition: form-data; name="a"\r\nX: '), Buffer.alloc(20_000, 97)]);
    await expect(parseAll(chunked(body, [100]), 'B')).rejects.toThrow(/malformed/);
  });

  it('passes a stream error through (a client that went away)', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(Buffer.from('--B\r\nContent-Disposition: form-data; name="file"; filename="x"\r\n\r\npartial'));
        controller.error(new Error('connection reset'));
      },
    });
    await expect(parseAll(stream, 'B')).rejects.toThrow('connection reset');
  });

  it('limits a text field to maxFieldBytes (exactly the limit passes)', async () => {
    const form = new FormData();
    form.append('body', 'x'.repeat(100));
    const { bytes, boundary } = await encode(form);
    await expect(parseAll(chunked(bytes, [50]), boundary, { maxFieldBytes: 100 })).resolves.toHaveLength(1);
    await expect(parseAll(chunked(bytes, [50]), boundary, { maxFieldBytes: 99 })).rejects.toThrow('The body field is too large.');
  });
});
