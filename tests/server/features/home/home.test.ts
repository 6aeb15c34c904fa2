// Home sections API (docs/product/api.md#home): public read, admin-only writes that schedule a publish.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient, createUser, login } from '../../../helpers/auth.ts';
import { createRecordingPublisher, createTestContext, type RecordingPublisher, type TestContext } from '../../../helpers/test-context.ts';

let ctx: TestContext;
let publisher: RecordingPublisher;

beforeEach(async () => {
  publisher = createRecordingPublisher();
  ctx = createTestContext({ publisher });
  await createUser(ctx, { email: 'admin@example.com', role: 'admin' });
  await createUser(ctx, { email: 'user@example.com' });
});
afterEach(() => ctx.cleanup());

describe('home sections', () => {
  it('lets an admin create and update a section, each write scheduling a publish', async () => {
    const admin = await login(ctx.app, 'admin@example.com');
    const created = await admin.request('POST', '/api/home/store', { title: 'Precision first', body: '**bold**', order: 2, id: '' });
    expect(created.status).toBe(201);
    const { section } = (await created.json()) as { section: { id: number; title: string } };
    expect(section.title).toBe('Precision first');

    const updated = await admin.request('PUT', '/api/home/update', { id: section.id, title: 'Precision always', body: 'new', order: 1 });
    expect(updated.status).toBe(200);
    expect(publisher.reasons).toHaveLength(2);

    const list = await createClient(ctx.app).request('GET', '/api/home/getSections');
    const { sections } = (await list.json()) as { sections: { id: number; title: string; order: number; images: unknown[] }[] };
    expect(sections).toEqual([expect.objectContaining({ id: section.id, title: 'Precision always', order: 1, images: [] })]);
  });

  it('answers 422 with per-field messages and changes nothing for bad input', async () => {
    const admin = await login(ctx.app, 'admin@example.com');
    const response = await admin.request('POST', '/api/home/store', { title: '   ', body: 'x', order: 'first' });
    expect(response.status).toBe(422);
    const answer = (await response.json()) as { message: string; errors: Record<string, string[]> };
    expect(answer.errors.title?.[0]).toBe('The title field is required.');
    expect(answer.errors.order?.[0]).toMatch(/number/);
    expect(publisher.reasons).toHaveLength(0);
    const list = (await (await createClient(ctx.app).request('GET', '/api/home/getSections')).json()) as { sections: unknown[] };
    expect(list.sections).toHaveLength(0);
  });

  it('refuses writes from anonymous visitors (401) and ordinary users (403)', async () => {
    const anonymous = createClient(ctx.app);
    await anonymous.fetchCsrfCookie();
    expect((await anonymous.request('POST', '/api/home/store', { title: 'x', body: '', order: 0 })).status).toBe(401);
    const user = await login(ctx.app, 'user@example.com');
    expect((await user.request('POST', '/api/home/store', { title: 'x', body: '', order: 0 })).status).toBe(403);
    expect((await user.request('PUT', '/api/home/update', { id: 1, title: 'x', body: '', order: 0 })).status).toBe(403);
    expect((await user.request('DELETE', '/api/home/delete', { id: 1 })).status).toBe(403);
    expect(publisher.reasons).toHaveLength(0);
  });

  it('answers 404 for updating or deleting a section that does not exist', async () => {
    const admin = await login(ctx.app, 'admin@example.com');
    expect((await admin.request('PUT', '/api/home/update', { id: 999, title: 'x', body: '', order: 0 })).status).toBe(404);
    expect((await admin.request('DELETE', '/api/home/delete', { id: 999 })).status).toBe(404);
    expect(publisher.reasons).toHaveLength(0);
  });

  it('deletes a section and republishes', async () => {
    const admin = await login(ctx.app, 'admin@example.com');
    const created = (await (await admin.request('POST', '/api/home/store', { title: 'Temporary', body: '', order: 0 })).json()) as { section: { id: number } };
    const response = await admin.request('DELETE', '/api/home/delete', { id: created.section.id });
    expect(response.status).toBe(200);
    const list = (await (await createClient(ctx.app).request('GET', '/api/home/getSections')).json()) as { sections: unknown[] };
    expect(list.sections).toHaveLength(0);
    expect(publisher.reasons).toHaveLength(2);
  });
});
