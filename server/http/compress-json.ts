// Compresses large JSON answers of the API for clients that accept it. The admin's user list of a site
// with 10,000 users is about 4.5 MB of JSON and about a tenth of that compressed; small answers (most of
// the API) are left as they are, since compressing them saves less than it costs. Only JSON: downloads,
// ranged answers and streams pass untouched.
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { acceptedEncodings } from '../static/respond.ts';

/** Below this, a compressed answer is hardly smaller on the wire (one or two TCP packets either way). */
export const COMPRESS_MIN_BYTES = 4 * 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

type JsonCall = { answer: Response; value: unknown };

/**
 * Notes which value each `c.json()` answer of this request was made from, so its size is known from the
 * value, not by reading the answer back. Reading an answer's body makes the Node adapter build a full fetch
 * `Response` and stream it: for a small answer (nearly all of them) that took two thirds of the time a
 * client asking for compression was served in, and every browser asks (docs/engineering.md#speed-notes).
 */
function noteJsonCalls(c: Context): () => JsonCall | undefined {
  let last: JsonCall | undefined;
  const json = c.json as unknown as (value: unknown, ...rest: unknown[]) => Response;
  c.json = ((value: unknown, ...rest: unknown[]) => {
    const answer = json(value, ...rest);
    last = { answer, value };
    return answer;
  }) as unknown as typeof c.json;
  return () => last;
}

export const compressJson = createMiddleware(async (c, next) => {
  // The request says first whether there is anything to do: nothing of the answer is touched otherwise.
  if (c.req.method === 'HEAD') return next();
  const accepted = acceptedEncodings(c.req.header('Accept-Encoding'));
  if (!accepted.br && !accepted.gzip) return next();
  const lastJsonCall = noteJsonCalls(c);
  await next();
  const answer = c.res;
  const made = lastJsonCall();
  // The same text c.json() sent (JSON.stringify of the same value): a small answer stays as it is,
  // unread. It is the same whatever the client accepts, so it names no Vary.
  const text = made?.answer === answer ? (JSON.stringify(made.value) ?? '') : undefined;
  if (text !== undefined && Buffer.byteLength(text) < COMPRESS_MIN_BYTES) return;
  if (!answer.headers.get('Content-Type')?.startsWith('application/json') || answer.headers.has('Content-Encoding')) return;
  // A large c.json() answer is compressed from that text; one made otherwise (or changed since) is read
  // to learn its size, and then made again.
  const body = text !== undefined ? Buffer.from(text) : Buffer.from(await answer.arrayBuffer());
  const headers = new Headers(answer.headers);
  if (body.length < COMPRESS_MIN_BYTES) {
    c.res = new Response(body, { status: answer.status, headers });
    return;
  }
  headers.append('Vary', 'Accept-Encoding');
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
