// STUB (to be replaced by the auth core): Origin check, XSRF double-submit check and the csrf-cookie route.
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppContext, AppEnv } from '../context.ts';

export function originCheck(_ctx: AppContext) {
  return createMiddleware<AppEnv>(async (_c, next) => next());
}
export function csrfProtection(_ctx: AppContext) {
  return createMiddleware<AppEnv>(async (_c, next) => next());
}
export function csrfCookieRoutes(_ctx: AppContext) {
  return new Hono<AppEnv>();
}
