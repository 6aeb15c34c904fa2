// One HTTP GET with exactly the headers given and the body as sent (still compressed), for comparing nginx's
// answer with the Node server's byte for byte: Playwright's and fetch's clients add Accept-Encoding and decode.
import http from 'node:http';
import zlib from 'node:zlib';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body decoded from its Content-Encoding. */
  body: Buffer;
}

export function rawGet(origin: string, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.get(new URL(path, origin), { headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const sent = Buffer.concat(chunks);
        const encoding = response.headers['content-encoding'];
        const body = encoding === 'br' ? zlib.brotliDecompressSync(sent) : encoding === 'gzip' ? zlib.gunzipSync(sent) : sent;
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}
