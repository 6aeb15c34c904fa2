// The admin's user actions (docs/product/admin.md#admin-screen, docs/product/api.md; issue 7, item 1). Mounted at /api/user, before account.ts:
// - PUT /update/{id}: an admin's edit of any user (server/features/users/admin-user-edit.ts). For everyone else this
//   handler steps aside (next()) and account.ts's own-profile route answers, so the spec's one path serves
//   both the dashboard and the admin screen.
// - DELETE /delete/{id}, PUT /suspend/{id}: hard delete (delete-user.ts, the one deletion path), ban/unban. Both end
//   every session of the user.
// The big table's paged listing is adminUserListRoutes, at /api/admin/users.
//
// The admin's view of a user's sessions (docs/admin-api.md#sessions-of-a-user; issue 13, item 2), mounted at
// /api/admin/users beside the users listing: list them, end one, end all. Shown in the user's Details area
// of the admin console. The list is the one the user sees (server/features/sessions/present.ts).
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import type { User } from '../../db/schema.ts';
import { requireAdmin, guardedUser } from '../../auth/guards.ts';
import { sendVerificationEmail } from '../../auth/email-verification.ts';
import { invalidateUserSessions } from '../../auth/sessions.ts';
import { writeTransaction } from '../../db/client.ts';
import { listLicensesOfUsers } from '../licensing/index.ts';
import { getUserById, isPostAuthor, setUserBanned } from '../../db/queries/users.ts';
import { presentLicenses } from '../licensing/index.ts';
import { listUsersPage, USER_SORT_FIELDS, type SortValue, type UserSortField } from './queries.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse, fieldErrorsFromZod, HttpError, validationFailed } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { toAdminUser } from '../../auth/public-user.ts';
import { assertAdminRemovalAllowed, isActiveAdmin } from './admin-protection.ts';
import { deleteUserWithOwnedData } from './delete-user.ts';
import { ADMIN_USER_MESSAGES, adminUserSchema, applyAdminUserEdit, findReadOnlyChanges } from './admin-user-edit.ts';
import { isPlainObject } from '../../http/plain-object.ts';
import { flagField, optionalIdField, parseId } from '../../http/fields.ts';
import { deleteSessionOfUserByPublicId, listLiveSessionsOfUser } from '../../db/queries/sessions.ts';
import { PUBLIC_SESSION_ID, SESSION_MESSAGES } from '../sessions/index.ts';
import { presentSessions } from '../sessions/index.ts';

export const USER_ACTION_MESSAGES = {
  deleted: 'User deleted.',
  banned: 'User banned.',
  unbanned: 'User unbanned.',
  idMismatch: 'The id does not match the user in the address.',
  notJson: 'The request body must be a JSON object.',
} as const;

const suspendSchema = z.object({
  is_banned: flagField('is banned'),
  id: optionalIdField('id'),
});

/** The acting admin, re-read inside the transaction: demoted or banned a moment ago means no longer. */
function requireActiveAdmin(ctx: AppContext, actorId: number): void {
  const actor = getUserById(ctx.db, actorId);
  if (!actor || !isActiveAdmin(actor)) throw new HttpError(403, ADMIN_USER_MESSAGES.forbidden);
}

/**
 * An admin's edit of any user through the spec's own PUT /api/user/update/{id} (docs/product/api.md), which the
 * profile feature owns: it hands an admin's request here, everyone else's is an edit of their own profile.
 */
export function editUserAsAdmin(ctx: AppContext) {
  // A post shows its author's name and role: changing or removing an author changes published pages.
  const republishIfAuthor = (userId: number, why: string) => {
    if (isPostAuthor(ctx.db, userId)) ctx.publisher.schedule(why);
  };
  return async (c: Context<AppEnv>, actor: User) => {
    const id = parseId(c.req.param('id'));
    const target = id === null ? undefined : getUserById(ctx.db, id);
    if (id === null || !target) return errorResponse(c, 404, ADMIN_USER_MESSAGES.notFound);
    const body: unknown = await c.req.json().catch(() => undefined);
    if (!isPlainObject(body)) return errorResponse(c, 422, USER_ACTION_MESSAGES.notJson);
    // The client sends the whole user object back: read-only fields pass as echoes, changes are refused.
    const readOnly = findReadOnlyChanges(body, target);
    if (readOnly.length > 0) return errorResponse(c, 403, ADMIN_USER_MESSAGES.readOnly(readOnly));
    const parsed = adminUserSchema.safeParse(body);
    if (!parsed.success) return validationFailed(c, fieldErrorsFromZod(parsed.error));

    const outcome = writeTransaction(ctx.db, () => applyAdminUserEdit(ctx, actor.id, id, parsed.data));
    if (outcome.emailChanged) {
      // The new address must be proven like any other; sent in the background, a failure is logged.
      void sendVerificationEmail(ctx, outcome.user);
    }
    if (outcome.authorFieldsChanged) republishIfAuthor(id, `author ${id} edited by admin ${actor.id}`);
    if (outcome.user.id === actor.id) c.set('user', outcome.user);
    return c.json({ message: ADMIN_USER_MESSAGES.updated, user: toAdminUser(outcome.user) });
  };
}

export function adminUserRoutes(ctx: AppContext) {
  const nowIso = () => new Date(ctx.now()).toISOString();

  return new Hono<AppEnv>()
    .delete('/delete/:id', requireAdmin, (c) => {
      const actorId = c.get('user')?.id ?? 0;
      const id = parseId(c.req.param('id'));
      if (id === null) return errorResponse(c, 404, ADMIN_USER_MESSAGES.notFound);
      deleteUserWithOwnedData(ctx, id, {
        assertAllowed: (target) => {
          requireActiveAdmin(ctx, actorId);
          assertAdminRemovalAllowed(ctx.db, actorId, target, 'delete');
        },
        publishReason: `author ${id} deleted by admin ${actorId}`,
      });
      return c.json({ message: USER_ACTION_MESSAGES.deleted, id });
    })
    .put('/suspend/:id', requireAdmin, smallJsonBody(), validate('json', suspendSchema), (c) => {
      const actorId = c.get('user')?.id ?? 0;
      const id = parseId(c.req.param('id'));
      if (id === null) return errorResponse(c, 404, ADMIN_USER_MESSAGES.notFound);
      const input = c.req.valid('json');
      if (input.id !== undefined && input.id !== id) return validationFailed(c, { id: [USER_ACTION_MESSAGES.idMismatch] });
      const user = writeTransaction(ctx.db, () => {
        requireActiveAdmin(ctx, actorId);
        const target = getUserById(ctx.db, id);
        if (!target) throw new HttpError(404, ADMIN_USER_MESSAGES.notFound);
        if (input.is_banned) {
          assertAdminRemovalAllowed(ctx.db, actorId, target, 'ban');
          invalidateUserSessions(ctx, id);
        }
        return setUserBanned(ctx.db, id, input.is_banned === 1, nowIso());
      });
      if (!user) return errorResponse(c, 404, ADMIN_USER_MESSAGES.notFound);
      return c.json({ message: input.is_banned ? USER_ACTION_MESSAGES.banned : USER_ACTION_MESSAGES.unbanned, user: toAdminUser(user) });
    });
}

// GET /api/admin/users: the big table's page of users. Cursors are opaque to clients; they carry the sort
// they were made for, so a cursor reused under another sort is refused instead of giving a wrong page.
const CURSOR_INVALID = 'The cursor is invalid or belongs to another sort order; start again without it.';

interface Cursor {
  s: UserSortField;
  d: 'asc' | 'desc';
  v: SortValue;
  i: number;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(text: string): Cursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!isPlainObject(value)) return null;
    const { s, d, v, i } = value;
    const valid =
      (USER_SORT_FIELDS as readonly unknown[]).includes(s) &&
      (d === 'asc' || d === 'desc') &&
      (typeof v === 'string' || typeof v === 'number') &&
      Number.isSafeInteger(i);
    return valid ? (value as unknown as Cursor) : null;
  } catch {
    return null;
  }
}

const listQuerySchema = z.object({
  query: z.string().trim().max(200, 'The query must not be longer than 200 characters.').optional(),
  sort: z.enum(USER_SORT_FIELDS, { error: 'The sort field is not a user column.' }).default('id'),
  // docs/product/admin.md#admin-screen toggles the direction between 1 and -1; asc/desc are accepted too.
  dir: z
    .enum(['asc', 'desc', '1', '-1'], { error: 'The direction must be asc, desc, 1 or -1.' })
    .default('asc')
    .transform((dir): 'asc' | 'desc' => (dir === 'desc' || dir === '-1' ? 'desc' : 'asc')),
  cursor: z.string().max(2000).optional(),
  limit: z.coerce.number({ error: 'The limit must be a number.' }).int().min(1).max(500, 'The limit may be at most 500.').default(50),
});

export function adminUserListRoutes(ctx: AppContext) {
  return new Hono<AppEnv>().get('/', requireAdmin, validate('query', listQuerySchema), (c) => {
    const { query, sort, dir, cursor, limit } = c.req.valid('query');
    let after: { value: SortValue; id: number } | undefined;
    if (cursor) {
      const decoded = decodeCursor(cursor);
      if (!decoded || decoded.s !== sort || decoded.d !== dir) return validationFailed(c, { cursor: [CURSOR_INVALID] });
      after = { value: decoded.v, id: decoded.i };
    }
    const page = listUsersPage(ctx.db, { search: query || undefined, sort, dir, after, limit });
    const admin = guardedUser(c.get('user'));
    const licenses = listLicensesOfUsers(
      ctx.db,
      page.users.map((user) => user.id),
    );
    return c.json({
      users: page.users.map(toAdminUser),
      licenses: presentLicenses(ctx.db, licenses, { viewer: admin, now: ctx.now() }),
      total: page.total,
      next_cursor: page.next ? encodeCursor({ s: sort, d: dir, v: page.next.value, i: page.next.id }) : null,
      sort,
      dir,
      limit,
    });
  });
}

export function adminSessionRoutes(ctx: AppContext) {
  /** The user of the path, or null (the route answers 404) for a malformed or unknown id. */
  const targetOf = (text: string | undefined) => {
    const id = parseId(text);
    return id === null ? null : (getUserById(ctx.db, id) ?? null);
  };

  return new Hono<AppEnv>()
    .get('/:id/sessions', requireAdmin, (c) => {
      const target = targetOf(c.req.param('id'));
      if (!target) return errorResponse(c, 404, ADMIN_USER_MESSAGES.notFound);
      return c.json({ sessions: presentSessions(listLiveSessionsOfUser(ctx.db, target.id, ctx.now()), c.get('sessionId')) });
    })
    .delete('/:id/sessions', requireAdmin, (c) => {
      const target = targetOf(c.req.param('id'));
      if (!target) return errorResponse(c, 404, ADMIN_USER_MESSAGES.notFound);
      invalidateUserSessions(ctx, target.id);
      return c.body(null, 204);
    })
    .delete('/:id/sessions/:sessionId', requireAdmin, (c) => {
      const target = targetOf(c.req.param('id'));
      if (!target) return errorResponse(c, 404, ADMIN_USER_MESSAGES.notFound);
      const sessionId = c.req.param('sessionId');
      if (!PUBLIC_SESSION_ID.test(sessionId) || !deleteSessionOfUserByPublicId(ctx.db, target.id, sessionId)) {
        return errorResponse(c, 404, SESSION_MESSAGES.notFound);
      }
      return c.body(null, 204);
    });
}

/** The users feature as server/app.ts mounts it: the admin's user management, at full paths. */
export function usersFeature(ctx: AppContext) {
  return new Hono<AppEnv>()
    .route('/api/user', adminUserRoutes(ctx))
    .route('/api/admin/users', adminUserListRoutes(ctx))
    .route('/api/admin/users', adminSessionRoutes(ctx));
}
