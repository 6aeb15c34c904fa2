// Like with like (issue 31, item 7): a ratio to a bare handler only says what the product adds around the
// work when both do the same work, and the surest sign of that is the same answer. The bare handler's
// validate once answered a license without the entitlements and maintenance issue 24 added to the product's,
// and signed a file of half the product's claims, and its GET /api/user and byslug answered raw rows where
// the product presents the user, each license (status, entitlements, live leases) and each post (its
// relations, "3 hours ago"), and nothing noticed. So before the load the bench asks both
// and stops when their answers differ in anything but what a second later must change: a signed file's times
// and signature, a lease's end, a download link's expiry and signature, a post's "3 hours ago".
import { isDeepStrictEqual } from 'node:util';
import { decodeJwt, decodeProtectedHeader } from 'jose';

export type ComparedAnswer = 'validate' | 'heartbeat' | 'latest' | 'user' | 'byslug';

/** The part of a compact JWS (header.payload.signature) that does not move with the clock: header and claims but times. */
function fileWithoutTimes(file: unknown): unknown {
  if (typeof file !== 'string') return file;
  const { iat: _issued, nbf: _notBefore, exp: _expires, ...claims } = decodeJwt(file);
  return { header: decodeProtectedHeader(file), claims };
}

/** The answer with what must differ from call to call taken out. */
function comparable(kind: ComparedAnswer, answer: unknown): unknown {
  if (answer === null || typeof answer !== 'object') return answer;
  const fields = answer as Record<string, unknown>;
  if (kind === 'heartbeat') {
    const { lease_expires_at: leaseEnd, license_file: file, ...rest } = fields;
    return { ...rest, lease_expires_at: typeof leaseEnd, license_file: fileWithoutTimes(file) };
  }
  if (kind === 'byslug' && Array.isArray(fields.posts)) {
    // "3 hours ago" is made when the answer is; the time it counts from (created_at) stays compared.
    const posts = (fields.posts as Record<string, unknown>[]).map(({ created_at_diff: ago, ...post }) => ({ ...post, created_at_diff: typeof ago }));
    return { ...fields, posts };
  }
  if (kind === 'latest') {
    const latest = fields.latest as { file?: { url?: unknown } } | null | undefined;
    const url = latest?.file?.url;
    // The link's host and query (expiry, signature) are each server's own; the file it names is not.
    if (!latest?.file || typeof url !== 'string') return answer;
    return { ...fields, latest: { ...latest, file: { ...latest.file, url: new URL(url).pathname } } };
  }
  return answer;
}

/** Undefined when the two answers are the same but for what moves with the clock; otherwise why not. */
export function answerDifference(kind: ComparedAnswer, product: unknown, bare: unknown): string | undefined {
  const [ours, reference] = [comparable(kind, product), comparable(kind, bare)];
  if (isDeepStrictEqual(ours, reference)) return undefined;
  return `${kind}: the product answers ${JSON.stringify(ours)}, the bare reference ${JSON.stringify(reference)}`;
}
