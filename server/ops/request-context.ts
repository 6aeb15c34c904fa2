// The request id (docs/decisions/0031-observability.md): made for every request by the listener
// (server/server.ts), or taken from X-Request-Id when a trusted proxy in front sent one, echoed in the
// answer, and carried through everything the request runs (AsyncLocalStorage), so every log line of the
// request names it without the id being passed around.
import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';

export interface RequestContext {
  requestId: string;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** Ids from a proxy are kept only when they are short and plain: they go into every log line verbatim. */
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// Random per process start, then a counter: unique across processes and restarts, and cheap enough for
// every static answer (no random bytes per request).
const processPrefix = crypto.randomBytes(6).toString('base64url');
let sequence = 0;

export function newRequestId(): string {
  sequence += 1;
  return `${processPrefix}-${sequence.toString(36)}`;
}

/** The proxy's id when TRUST_PROXY says the proxy's headers count and it is acceptable, else a new one. */
export function requestIdFor(header: string | string[] | undefined, trustProxy: boolean): string {
  if (trustProxy && typeof header === 'string' && ACCEPTED_ID.test(header)) return header;
  return newRequestId();
}

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}
