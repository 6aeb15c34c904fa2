// The one shape of the machine-facing APIs (docs/architecture.md#layers; docs/integrations.md): a caller
// that holds a credential (an API token, a license key), not a browser. Every call is counted against the
// caller's address first (bad credentials included), then the credential is read and checked, then counted
// against that credential; refusals are JSON `{ code, message }` with the HTTP status. The prefixes these
// guard are exempt from the Origin and XSRF checks, and cookies mean nothing there (server/auth/csrf.ts).
import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppContext, AppEnv } from '../context.ts';
import { clientIp, rateLimitAddress } from '../http/client-ip.ts';
import { createCountingRateLimiter } from './rate-limit.ts';

export function machineError(c: Context, status: ContentfulStatusCode, code: string, message: string, extra: Record<string, unknown> = {}): Response {
  return c.json({ code, message, ...extra }, status);
}

export type CredentialCheck<Credential> =
  | { ok: true; credential: Credential; bucket: string }
  | { ok: false; status: ContentfulStatusCode; code: string; message: string; headers?: Record<string, string> };

export interface MachineGuardOptions<Credential> {
  /** Names the limiters' rows (`<name>-ip`, `<name>-credential`). */
  name: string;
  perAddressPerMinute: number;
  perCredentialPerMinute: number;
  /** Reads and checks the credential; `bucket` is what the per-credential limit counts (never the secret itself). */
  authenticate: (c: Context<AppEnv>) => CredentialCheck<Credential>;
  /** Where the checked credential goes for the handlers. */
  store: (c: Context<AppEnv>, credential: Credential) => void;
}

function tooMany(c: Context, retryAfterSeconds: number): Response {
  c.header('Retry-After', String(retryAfterSeconds));
  return machineError(c, 429, 'RATE_LIMITED', `Too many requests. Please try again in ${retryAfterSeconds} seconds.`);
}

export function machineApiGuard<Credential>(
  ctx: Pick<AppContext, 'db' | 'now' | 'config'>,
  options: MachineGuardOptions<Credential>,
): MiddlewareHandler<AppEnv> {
  // Counted in memory and shared through SQLite every 100 ms, as the licensing API does (a write per call
  // would cost more than the call).
  const limits = { db: ctx.db, windowMs: 60_000, now: ctx.now, syncEveryMs: 100 };
  const perAddress = createCountingRateLimiter({ ...limits, name: `${options.name}-ip`, limit: options.perAddressPerMinute });
  const perCredential = createCountingRateLimiter({ ...limits, name: `${options.name}-credential`, limit: options.perCredentialPerMinute });
  return createMiddleware<AppEnv>(async (c, next) => {
    const byAddress = perAddress.consume(rateLimitAddress(clientIp(c, ctx.config)));
    if (!byAddress.allowed) return tooMany(c, byAddress.retryAfterSeconds);
    const check = options.authenticate(c);
    if (!check.ok) {
      for (const [name, value] of Object.entries(check.headers ?? {})) c.header(name, value);
      return machineError(c, check.status, check.code, check.message);
    }
    const byCredential = perCredential.consume(check.bucket);
    if (!byCredential.allowed) return tooMany(c, byCredential.retryAfterSeconds);
    options.store(c, check.credential);
    await next();
  });
}
