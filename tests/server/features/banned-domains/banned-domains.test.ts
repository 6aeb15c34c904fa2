// Banned domains: what an admin types is normalised to the form registration compares against,
// duplicates are refused, and each domain comes with the existing users it covers.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normaliseDomain, usersByBannedDomain } from '../../../../server/features/banned-domains/domain-name.ts';
import { isDomainBanned } from '../../../../server/features/banned-domains/queries.ts';
import { createUser } from '../../../helpers/auth.ts';
import { createAdminFixture, json, type AdminFixture } from '../../admin/admin-fixture.ts';

describe('normaliseDomain', () => {
  it.each([
    ['example.com', 'example.com'],
    ['  Example.COM  ', 'example.com'],
    ['@spam.example', 'spam.example'],
    ['*.spam.example', 'spam.example'],
    ['mail.spam.example.', 'mail.spam.example'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['a-b.co.uk', 'a-b.co.uk'],
  ])('%j → %s', (input, expected) => {
    expect(normaliseDomain(input)).toBe(expected);
  });

  it.each([
    '',
    '   ',
    'localhost',
    'com',
    '192.168.0.1',
    'exa mple.com',
    'user@example.com',
    '-bad.com',
    'bad-.com',
    'under_score.com',
    'http://example.com',
    'a..b.com',
    `${'a'.repeat(64)}.com`,
    '@',
    '*.',
  ])('refuses %j', (input) => {
    expect(normaliseDomain(input)).toBeNull();
  });
});

describe('usersByBannedDomain', () => {
  it('finds users of the domain and of its subdomains, not of look-alikes', () => {
    const users = [
      { id: 1, email: 'a@spam.test' },
      { id: 2, email: 'b@mail.SPAM.test' },
      { id: 3, email: 'c@notspam.test' },
      { id: 4, email: 'd@spam.test.example' },
    ];
    const found = usersByBannedDomain(users, ['spam.test', 'other.test']);
    expect(found.get('spam.test')?.map((user) => user.id)).toEqual([1, 2]);
    expect(found.get('other.test')).toEqual([]);
  });
});

describe('the banned-domains API', () => {
  let fixture: AdminFixture;
  beforeEach(async () => {
    fixture = await createAdminFixture();
  });
  afterEach(() => fixture.ctx.cleanup());

  type DomainAnswer = { id: number; domain: string; created_at: string; updated_at: string; users: Array<{ id: number; email: string }>; users_count: number };

  it('stores the normalised domain, lists the users it covers, and registration then refuses it', async () => {
    const { ctx, admin } = fixture;
    const spammer = await createUser(ctx, { email: 'x@mail.spam.test' });
    await createUser(ctx, { email: 'y@notspam.test' });
    const response = await admin.request('POST', '/api/admin/banned-domains/store', { domain: ' @Spam.TEST ' });
    expect(response.status).toBe(201);
    const body = await json<{ message: string; domain: DomainAnswer }>(response);
    expect(body.message).toBe('Domain banned.');
    expect(body.domain).toMatchObject({ domain: 'spam.test', users: [{ id: spammer.id, email: 'x@mail.spam.test' }], users_count: 1 });
    expect(body.domain.created_at).toMatch(/^\d{4}-/);
    expect(isDomainBanned(ctx.db, 'new.spam.test')).toBe(true);

    const list = await json<DomainAnswer[]>(await admin.request('GET', '/api/admin/banned-domains'));
    expect(list).toEqual([expect.objectContaining({ id: body.domain.id, domain: 'spam.test', users_count: 1 })]);
    expect(Object.keys(list[0] ?? {}).sort()).toEqual(['created_at', 'domain', 'id', 'updated_at', 'users', 'users_count']);
  });

  it('refuses duplicates in any spelling, and invalid domains, with 422 under domain', async () => {
    const { admin } = fixture;
    await admin.request('POST', '/api/admin/banned-domains/store', { domain: 'spam.test' });
    for (const domain of ['spam.test', 'SPAM.test.', '@spam.test', '*.spam.test']) {
      const response = await admin.request('POST', '/api/admin/banned-domains/store', { domain });
      expect(response.status, domain).toBe(422);
      expect(await json(response)).toEqual({ message: 'This domain is already banned.', errors: { domain: ['This domain is already banned.'] } });
    }
    for (const domain of ['not a domain', 'localhost', '10.0.0.1', 42, '']) {
      const response = await admin.request('POST', '/api/admin/banned-domains/store', { domain });
      expect(response.status, String(domain)).toBe(422);
      expect((await json<{ errors: { domain: string[] } }>(response)).errors.domain).toHaveLength(1);
    }
    expect((await admin.request('POST', '/api/admin/banned-domains/store', {})).status).toBe(422);
    expect(await json<unknown[]>(await admin.request('GET', '/api/admin/banned-domains'))).toHaveLength(1);
  });

  it('deletes by id, and answers 404 for unknown ids', async () => {
    const { ctx, admin } = fixture;
    const { domain } = await json<{ domain: DomainAnswer }>(await admin.request('POST', '/api/admin/banned-domains/store', { domain: 'spam.test' }));
    const response = await admin.request('DELETE', `/api/admin/banned-domains/delete/${domain.id}`);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ message: 'Domain removed from the banned list.', id: domain.id });
    expect(isDomainBanned(ctx.db, 'spam.test')).toBe(false);
    expect((await admin.request('DELETE', `/api/admin/banned-domains/delete/${domain.id}`)).status).toBe(404);
    expect((await admin.request('DELETE', '/api/admin/banned-domains/delete/abc')).status).toBe(404);
  });
});
