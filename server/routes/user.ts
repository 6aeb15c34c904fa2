// STUB: replaced by the feature's router.
import { Hono } from 'hono';
import type { AppContext, AppEnv } from '../context.ts';

export function userRoutes(_ctx: AppContext) {
  return new Hono<AppEnv>();
}
