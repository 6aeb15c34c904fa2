// For the one state-changing GET the spec keeps (GET /api/user/request-license/{id}, docs/product/api.md).
// csrfProtection guards only unsafe methods, and SameSite=Lax cookies still ride along on a top-level
// cross-site navigation (a link or a redirect to this URL). Requiring X-Requested-With closes that: the
// spec's client sends it on every call, and no link, form, image or redirect can add a header, while a
// cross-origin fetch with a custom header needs a CORS preflight that we never grant.
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context.ts';
import { errorResponse } from '../http/errors.ts';

export const AJAX_ONLY_MESSAGE = 'This request must be sent by the site itself.';

export const requireAjaxHeader = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.header('X-Requested-With')?.toLowerCase() !== 'xmlhttprequest') return errorResponse(c, 403, AJAX_ONLY_MESSAGE);
  await next();
});
