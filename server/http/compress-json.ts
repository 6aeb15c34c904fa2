// Compresses large JSON answers of the API for clients that accept it. The admin's user list of a site
// with 10,000 users is about 4.5 MB of JSON and about a tenth of that compressed; small answers (most of
// the API) are left as they are, since compressing them saves less than it costs. Only JSON: downloads,
// ranged answers and streams pass untouched.
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { createMiddleware } from 'hono/factory';
import { acceptedEncodings } from '../static/respond.ts';

/** Below this, a compressed answer is hardly smaller on the wire (one or two TCP packets either way). */
export const COMPRESS_MIN_BYTES = 4 * 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export const compressJson = createMiddleware(async (c, next) => {
  await next();
  if (c.req.method === 'HEAD') return;
  // The request says first whether there is anything to do: nothing of the answer is touched otherwise.
  const accepted = acceptedEncodings(c.req.header('Accept-Encoding'));
  if (!accepted.br && !accepted.gzip) return;
  const answer = c.res;
  if (!answer.headers.get('Content-Type')?.startsWith('application/json') || answer.headers.has('Content-Encoding')) return;
  const body = Buffer.from(await answer.arrayBuffer());
  const headers = new Headers(answer.headers);
  headers.append('Vary', 'Accept-Encoding');
  if (body.length < COMPRESS_MIN_BYTES) {
    c.res = new Response(body, { status: answer.status, headers });
    return;
  }
  // Quality 5 and level 6: a few milliseconds per megabyte, async so other requests go on meanwhile.
  const encoding = accepted.br ? 'br' : 'gzip';
  const compressed =
    encoding === 'br'
      ? await brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
      : await gzip(body, { level: 6 });
  headers.set('Content-Encoding', encoding);
  headers.delete('Content-Length');
  c.res = new Response(compressed, { status: answer.status, headers });
});
