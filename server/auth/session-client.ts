// What a new session records about the browser that starts it (docs/product/accounts.md#sessions): the
// client's address as rate limits see it (server/http/client-ip.ts) and the User-Agent header. Every place
// that creates a session (the login, and a second sign-in step) passes this to createSession.
import type { Context } from 'hono';
import type { Config } from '../env.ts';
import { clientIp, UNKNOWN_IP } from '../http/client-ip.ts';
import type { SessionClient } from './sessions.ts';

export function sessionClientOf(c: Context, config: Pick<Config, 'trustProxy'>): SessionClient {
  const ip = clientIp(c, config);
  const userAgent = c.req.header('User-Agent')?.trim();
  return { ip: ip === UNKNOWN_IP ? null : ip, userAgent: userAgent ? userAgent : null };
}
