// One delivery attempt (docs/integrations.md#delivery): a POST with a 10-second limit on the whole exchange,
// to an address checked when the connection is made (destination.ts), with no redirect followed: a 3xx is a
// failure like any other non-2xx, since following it could lead anywhere the check did not see.
import http from 'node:http';
import https from 'node:https';
import { DestinationRefused, guardedLookup, refusedLiteral } from './destination.ts';

export const WEBHOOK_TIMEOUT_MS = 10_000;
/** What we read of an answer: enough for a status line's worth of explanation in the admin's list. */
const MAX_ANSWER_BYTES = 4096;

export type AttemptResult = { ok: true; status: number } | { ok: false; status: number | null; error: string };

export function postWebhook(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: { allowPrivate: boolean; timeoutMs?: number },
): Promise<AttemptResult> {
  const url = new URL(target);
  const literal = refusedLiteral(url, options.allowPrivate);
  if (literal) return Promise.resolve({ ok: false, status: null, error: `Refused: ${literal}.` });
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'User-Agent': 'dimensional-site-webhooks/1', 'Content-Length': Buffer.byteLength(body), ...headers },
        lookup: guardedLookup(options.allowPrivate),
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let read = 0;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => {
          if (read < MAX_ANSWER_BYTES) chunks.push(chunk.subarray(0, MAX_ANSWER_BYTES - read));
          read += chunk.length;
        });
        response.on('end', () => {
          if (status >= 200 && status < 300) return settle({ ok: true, status });
          const text = Buffer.concat(chunks).toString('utf8').replace(/\s+/g, ' ').trim().slice(0, 200);
          const redirect = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
          settle({ ok: false, status, error: `HTTP ${status}${redirect}${text ? `: ${text}` : ''}` });
        });
        response.on('error', (error) => settle({ ok: false, status, error: error.message }));
      },
    );
    const timer = setTimeout(() => {
      settle({ ok: false, status: null, error: `No answer within ${Math.round((options.timeoutMs ?? WEBHOOK_TIMEOUT_MS) / 1000)} seconds.` });
      request.destroy();
    }, options.timeoutMs ?? WEBHOOK_TIMEOUT_MS);
    request.on('error', (error) =>
      settle({ ok: false, status: null, error: error instanceof DestinationRefused ? `Refused: ${error.message}.` : error.message }),
    );
    request.end(body);
  });
}
