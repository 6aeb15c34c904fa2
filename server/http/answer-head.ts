// The head of every answer that is not a static page, written by one writeHead of one list: the listener's
// headers (the request's id, the process's own), the answer's own, and what the API adds (its security
// headers, server/http/security-headers.ts). Once a header is set on Node's response before writeHead,
// Node takes every header writeHead is given through removeHeader and appendHeader one by one: with the
// API's ten or so headers that cost about 9 µs an answer (docs/engineering.md#speed-notes), as it did the
// static pages, which write their prepared list the same way (server/static/respond.ts).
import type { OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** A head as writeHead takes it in one list: name, value, name, value… */
export type HeadList = (string | OutgoingHttpHeader)[];

/** Adds to the head when it is written; `list` then holds the listener's headers and the answer's own. */
export type HeadAddition = (list: HeadList, res: ServerResponse) => void;

interface PendingHead {
  stamp: readonly string[];
  addition: HeadAddition | undefined;
}

const PENDING = Symbol('the head to write with the answer');
type WithPendingHead = ServerResponse & { [PENDING]?: PendingHead };

function pendingHead(res: WithPendingHead): PendingHead {
  const existing = res[PENDING];
  if (existing) return existing;
  const pending: PendingHead = { stamp: [], addition: undefined };
  res[PENDING] = pending;
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, statusCode: number, ...rest: unknown[]) {
    res.writeHead = writeHead;
    // writeHead(status), (status, headers) or (status, message, headers); Node's implicit head is the first.
    const message = typeof rest[0] === 'string' ? rest[0] : undefined;
    const given = (message === undefined ? rest[0] : rest[1]) as OutgoingHttpHeaders | HeadList | undefined;
    const list: HeadList = [...pending.stamp];
    if (Array.isArray(given)) list.push(...given);
    else if (given) {
      for (const name in given) {
        const value = given[name];
        if (value !== undefined) list.push(name, value);
      }
    }
    pending.addition?.(list, this);
    const write = writeHead as (this: ServerResponse, statusCode: number, ...rest: unknown[]) => ServerResponse;
    return message === undefined ? write.call(this, statusCode, list) : write.call(this, statusCode, message, list);
  } as ServerResponse['writeHead'];
  return pending;
}

/** The listener's headers for this answer (its id, the process's), written with the answer's head. */
export function stampAtHead(res: ServerResponse, stamp: readonly string[]): void {
  pendingHead(res).stamp = stamp;
}

/** What the app adds to this answer's head (one addition; a later one replaces it). */
export function addAtHead(res: ServerResponse, addition: HeadAddition): void {
  pendingHead(res).addition = addition;
}

/** The lower-case names of a head list, to leave a header the answer names itself as it is. */
export function namesIn(list: HeadList): Set<string> {
  const names = new Set<string>();
  for (let i = 0; i < list.length; i += 2) names.add(String(list[i]).toLowerCase());
  return names;
}
