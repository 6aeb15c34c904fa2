// A multipart upload written to a real server piece by piece over node's http client, for tests that
// watch or interrupt an upload in flight (large releases, kill -9, a full disk, a second server start):
// the caller decides what to write and when; the Content-Length is announced for the whole file.
import http from 'node:http';

export interface StreamedUpload {
  request: http.ClientRequest;
  /** The multipart head (fields, then the file part's headers): write it first. */
  head: string;
  /** The closing boundary: `request.end(tail)` after the file's bytes. */
  tail: string;
  /** Resolves once the answer is read; rejects on a connection error before any answer. */
  answer: Promise<{ status: number; body: string }>;
  /** Writes and resolves when the socket took the data. */
  write(data: Buffer | string): Promise<void>;
}

export function openStreamedUpload(options: {
  url: URL;
  headers: Record<string, string>;
  fields: Record<string, string>;
  file: { name: string; type: string; size: number };
}): StreamedUpload {
  const boundary = `----streamed-upload-${Date.now().toString(16)}-${Math.random().toString(16).slice(2)}`;
  let head = '';
  for (const [name, value] of Object.entries(options.fields)) head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${options.file.name}"\r\nContent-Type: ${options.file.type}\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const request = http.request({
    host: options.url.hostname,
    port: options.url.port,
    path: options.url.pathname,
    method: 'POST',
    agent: false,
    headers: {
      ...options.headers,
      'Content-Type': `multipart/form-data; boundary=${boundary}`,
      'Content-Length': String(Buffer.byteLength(head) + options.file.size + Buffer.byteLength(tail)),
    },
  });
  let answered = false;
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('response', (response) => {
      answered = true;
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (text: string) => (body += text));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    // Writes after an early answer are read and dropped by the server's lingering close until it closes
    // (server/http/lingering-close.ts), then fail; only an error before any answer is a failure.
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
  });
  const write = (data: Buffer | string) => new Promise<void>((resolve, reject) => request.write(data, (error) => (error ? reject(error) : resolve())));
  return { request, head, tail, answer, write };
}
