// Answers for rate-limited routes: 429 with Retry-After (seconds) and the wait in words, with the message
// also under a field when the form shows only field errors (docs/product/messages.md#validation).
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context.ts';
import type { RateLimiter } from '../auth/rate-limit.ts';
import { errorResponse } from './errors.ts';

export function tooManyRequests(c: Context, retryAfterSeconds: number, field?: string) {
  const message = `Too many requests. Please try again in ${retryAfterSeconds} seconds.`;
  c.header('Retry-After', String(retryAfterSeconds));
  return errorResponse(c, 429, message, field ? { [field]: [message] } : undefined);
}

/**
 * Refuses early, without counting, when the key is already over its limit: a client that is throttled
 * anyway does not get to make us verify bot tokens or parse bodies. Handlers count with `consume`/`hit`.
 */
export function refuseWhenThrottled(limiter: RateLimiter, key: (c: Context<AppEnv>) => string, field?: string) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const decision = limiter.check(key(c));
    if (!decision.allowed) return tooManyRequests(c, decision.retryAfterSeconds, field);
    await next();
  });
}
