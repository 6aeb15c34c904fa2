// GET/POST /api/admin/publish: admins only, answering the status the admin client reads (snake_case).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PublishStatus } from '../../../../server/publish/types.ts';
import { createClient, createUser, login } from '../../../helpers/auth.ts';
import { createRecordingPublisher, createTestContext, type RecordingPublisher, type TestContext } from '../../../helpers/test-context.ts';

let ctx: TestContext;
let publisher: RecordingPublisher;

beforeEach(async () => {
  publisher = createRecordingPublisher();
  ctx = createTestContext({ publisher });
  await createUser(ctx, { email: 'admin@example.test', role: 'admin' });
  await createUser(ctx, { email: 'user@example.test' });
});
afterEach(() => ctx.cleanup());

describe('/api/admin/publish', () => {
  it('answers 401 to an anonymous visitor and schedules nothing', async () => {
    const anonymous = createClient(ctx.app);
    await anonymous.fetchCsrfCookie();
    expect((await anonymous.request('GET', '/api/admin/publish')).status).toBe(401);
    expect((await anonymous.request('POST', '/api/admin/publish')).status).toBe(401);
    expect(publisher.reasons).toEqual([]);
  });

  it('answers 403 to a user who is not an admin and schedules nothing', async () => {
    const user = await login(ctx.app, 'user@example.test');
    expect((await user.request('GET', '/api/admin/publish')).status).toBe(403);
    expect((await user.request('POST', '/api/admin/publish')).status).toBe(403);
    expect(publisher.reasons).toEqual([]);
  });

  it('shows an admin the state, the last success with its duration and the last failure with its log', async () => {
    const status: PublishStatus = {
      state: 'failed',
      pending: false,
      search: 'updating',
      currentBuildId: '20260101T000000000Z-000',
      lastSuccess: { at: '2026-01-01T00:00:03.000Z', durationMs: 3000, buildId: '20260101T000000000Z-000' },
      lastFailure: { at: '2026-01-02T00:00:01.000Z', durationMs: 1000, log: 'error: boom' },
    };
    publisher.status = () => status;
    const admin = await login(ctx.app, 'admin@example.test');
    const response = await admin.request('GET', '/api/admin/publish');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      state: 'failed',
      pending: false,
      search: 'updating',
      current_build_id: '20260101T000000000Z-000',
      last_success: { at: '2026-01-01T00:00:03.000Z', duration_ms: 3000, build_id: '20260101T000000000Z-000' },
      last_failure: { at: '2026-01-02T00:00:01.000Z', duration_ms: 1000, log: 'error: boom' },
    });
  });

  it('lets an admin trigger a publish that builds every page: 202 with the status', async () => {
    const admin = await login(ctx.app, 'admin@example.test');
    const response = await admin.request('POST', '/api/admin/publish');
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ state: 'idle', pending: false, search: null, current_build_id: null, last_success: null, last_failure: null });
    expect(publisher.reasons).toHaveLength(1);
    // The admin's publish on demand is a full build, never an incremental one (docs/decisions/0044-incremental-publish.md).
    expect(publisher.fullReasons).toEqual(publisher.reasons);
  });

  it('refuses a POST without the XSRF header (419) and schedules nothing', async () => {
    const admin = await login(ctx.app, 'admin@example.test');
    const response = await admin.request('POST', '/api/admin/publish', undefined, { headers: { 'X-XSRF-TOKEN': null } });
    expect(response.status).toBe(419);
    expect(publisher.reasons).toEqual([]);
  });
});
