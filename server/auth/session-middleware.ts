// STUB (to be replaced by the auth core): loads the session cookie into c.var.user.
import { createMiddleware } from 'hono/factory';
import type { AppContext, AppEnv } from '../context.ts';

export function loadSession(_ctx: AppContext) {
  return createMiddleware<AppEnv>(async (c, next) => {
    c.set('user', null);
    c.set('sessionId', null);
    await next();
  });
}
