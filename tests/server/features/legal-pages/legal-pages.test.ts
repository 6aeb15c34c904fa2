// The legal pages (issue 28, section 1): three pages with starting text that names what the site stores and exactly the
// cookies it sets; an admin edits them, each edit republishes; they and the contact details reach the snapshot.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SIGNED_IN_HINT_COOKIE, sessionCookieName, twoFactorCookieName } from '../../../../server/auth/cookies.ts';
import { visitorCookieName, XSRF_COOKIE } from '../../../../server/auth/xsrf-token.ts';
import { ensureLegalPages } from '../../../../server/features/legal-pages/index.ts';
import { exportSnapshot } from '../../../../server/publish/export-snapshot.ts';
import { createAdminFixture, json, type AdminFixture } from '../../admin/admin-fixture.ts';
import type { RecordingPublisher } from '../../../helpers/test-context.ts';

let fixture: AdminFixture;
beforeEach(async () => {
  fixture = await createAdminFixture();
  ensureLegalPages(fixture.ctx.db);
});
afterEach(() => fixture.ctx.cleanup());
/** What the test context's recording publisher was asked to build. */
const reasons = () => (fixture.ctx.publisher as RecordingPublisher).reasons;

interface Page {
  slug: string;
  title: string;
  body: string;
  updated_at: string;
}
const pages = async () => (await json<{ pages: Page[] }>(await fixture.ctx.app.request('/api/legal-pages'))).pages;

describe('the starting text', () => {
  it('exists for the three pages, once: a second start overwrites nothing', async () => {
    expect((await pages()).map((page) => [page.slug, page.title])).toEqual([
      ['imprint', 'Imprint'],
      ['privacy', 'Privacy Policy'],
      ['terms', 'Terms of Use'],
    ]);
    await fixture.admin.request('PUT', '/api/legal-pages/terms', { title: 'Our terms', body: 'Mine.' });
    expect(ensureLegalPages(fixture.ctx.db)).toBe(0);
    expect((await pages()).find((page) => page.slug === 'terms')).toMatchObject({ title: 'Our terms', body: 'Mine.' });
  });

  it('the privacy policy names every cookie the server sets (plain and __Host- forms), what it stores, and own-data export and deletion', async () => {
    const privacy = (await pages()).find((page) => page.slug === 'privacy')?.body ?? '';
    const cookies = [false, true].flatMap((secureCookies) => [
      sessionCookieName({ secureCookies }),
      twoFactorCookieName({ secureCookies }),
      visitorCookieName({ secureCookies }),
    ]);
    for (const name of [...cookies, SIGNED_IN_HINT_COOKIE, XSRF_COOKIE]) expect(privacy, name).toContain(`\`${name}\``);
    // And no other cookie than those: every name in backticks in the cookie table is one of them.
    const table = privacy.slice(privacy.indexOf('## Cookies'), privacy.indexOf('## Your data'));
    const named = [...table.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
    expect(new Set(named)).toEqual(new Set([...cookies, SIGNED_IN_HINT_COOKIE, XSRF_COOKIE]));
    for (const words of ['Sessions', 'Download logs', 'Download my data', 'Delete my account']) expect(privacy).toContain(words);
  });

  it('names the cookies a real sign-in sets', async () => {
    const privacy = (await pages()).find((page) => page.slug === 'privacy')?.body ?? '';
    for (const name of fixture.user.cookies.keys()) expect(privacy, name).toContain(`\`${name}\``);
  });
});

describe('PUT /api/legal-pages/{slug}', () => {
  it('saves title and markdown body for the admin and schedules a publish', async () => {
    const response = await fixture.admin.request('PUT', '/api/legal-pages/imprint', { title: ' Imprint ', body: '**ACME Ltd.**' });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({ message: 'Page saved.', page: { slug: 'imprint', title: 'Imprint', body: '**ACME Ltd.**' } });
    expect(reasons()).toContain('legal page imprint updated');
  });

  it('refuses an empty title (422), users (403) and unknown pages (404)', async () => {
    const empty = await fixture.admin.request('PUT', '/api/legal-pages/privacy', { title: '', body: 'x' });
    expect(empty.status).toBe(422);
    expect((await json<{ errors: Record<string, string[]> }>(empty)).errors.title).toEqual(['The title field is required.']);
    expect((await fixture.user.request('PUT', '/api/legal-pages/privacy', { title: 'Mine', body: '' })).status).toBe(403);
    expect((await fixture.admin.request('PUT', '/api/legal-pages/cookies', { title: 'X', body: '' })).status).toBe(404);
    expect(reasons()).toEqual([]);
  });
});

describe('PUT /api/contact/details', () => {
  it('saves address, e-mail and phone for the admin, republishes, and the public read shows them', async () => {
    expect(await json(await fixture.ctx.app.request('/api/contact/details'))).toEqual({ details: { address: '', email: '', phone: '', updated_at: null } });
    const saved = await fixture.admin.request('PUT', '/api/contact/details', {
      address: ' 1 Main St\nTown ',
      email: 'info@example.test',
      phone: '+44 (0)20 123-4567',
    });
    expect(saved.status).toBe(200);
    expect(reasons()).toContain('contact details updated');
    expect((await json<{ details: object }>(await fixture.ctx.app.request('/api/contact/details'))).details).toMatchObject({
      address: '1 Main St\nTown',
      email: 'info@example.test',
      phone: '+44 (0)20 123-4567',
    });
    // Empty fields are allowed: each is hidden on the page.
    expect((await fixture.admin.request('PUT', '/api/contact/details', { address: '', email: '', phone: '' })).status).toBe(200);
  });

  it('refuses a bad e-mail or phone (422 per field) and non-admins (403)', async () => {
    const bad = await fixture.admin.request('PUT', '/api/contact/details', { address: '', email: 'not-an-address', phone: 'call <me>' });
    expect(bad.status).toBe(422);
    expect(Object.keys((await json<{ errors: object }>(bad)).errors).sort()).toEqual(['email', 'phone']);
    expect((await fixture.user.request('PUT', '/api/contact/details', { address: 'x', email: '', phone: '' })).status).toBe(403);
  });
});

describe('the snapshot', () => {
  it('carries the legal pages and the contact details to the build', async () => {
    await fixture.admin.request('PUT', '/api/contact/details', { address: 'A', email: 'e@example.test', phone: '1' });
    const snapshot = exportSnapshot(fixture.ctx.db, fixture.ctx.config);
    expect(snapshot.legal_pages.map((page) => page.slug)).toEqual(['imprint', 'privacy', 'terms']);
    expect(snapshot.contact).toEqual({ address: 'A', email: 'e@example.test', phone: '1' });
  });
});
