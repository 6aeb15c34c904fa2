// Names are one line (issue 29, item 5): a contact name "Eve\r\nBcc: victim@…" forged a line in the admins'
// mail body. Every name field refuses line breaks and other control characters with 422 naming the field
// (one zod rule, server/http/fields.ts), and a name stored before the rule reaches a mail on one line
// (server/mail/greeting.ts, server/mail/templates.ts).
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { users } from '../../../server/db/schema.ts';
import { anonymousClient, register } from '../../helpers/accounts.ts';
import { createUser, login } from '../../helpers/auth.ts';
import { solveBotChallenge } from '../../helpers/botcheck.ts';
import { latestMailTo, readOutbox } from '../../helpers/mail.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';

const ADMIN_EMAIL = 'admin@example.test';
const FORGED = 'Eve\r\nBcc: victim@example.com';
/** Line breaks of every kind and other controls, each inside a name. */
const HOSTILE = ['Eve\nBcc: x', 'Eve\rBcc: x', 'Eve\u2028Bcc: x', 'Eve\u2029Bcc: x', 'Eve\u0000x', 'Eve\u001b]0;owned\u0007', 'Eve\u0085x', 'Eve\u202eevE'];
const ONE_LINE = (field: string) => `The ${field} field must be one line, without line breaks or control characters.`;

let ctx: TestContext;
beforeEach(() => {
  ctx = createTestContext({ env: { ADMIN_EMAIL, ADMIN_PASSWORD: 'admin-password-123' } });
});
afterEach(() => ctx.cleanup());

async function errorsOf(response: Response): Promise<Record<string, string[]>> {
  expect(response.status).toBe(422);
  return ((await response.json()) as { errors: Record<string, string[]> }).errors;
}

describe('a name with a line break or a control character', () => {
  it('is refused by the contact form with 422 naming the name, and nothing is mailed', async () => {
    for (const name of [FORGED, ...HOSTILE]) {
      const client = await anonymousClient(ctx.app);
      const response = await client.request('POST', '/api/contact', {
        g_token: await solveBotChallenge(ctx.app),
        name,
        email: 'eve@example.test',
        message: 'Hello\nthere',
      });
      expect((await errorsOf(response)).name, JSON.stringify(name)).toEqual([ONE_LINE('name')]);
    }
    expect(readOutbox(ctx.config.outboxDir)).toEqual([]);
  });

  it('is refused at registration', async () => {
    expect((await errorsOf(await register(ctx.app, { name: FORGED, email: 'eve@example.test' }))).name).toEqual([ONE_LINE('name')]);
    expect(ctx.db.select().from(users).where(eq(users.email, 'eve@example.test')).get()).toBeUndefined();
  });

  it('is refused in the own profile (name, surname, company name) and in an admin’s edit', async () => {
    const ann = await createUser(ctx, { email: 'ann@example.test', name: 'Ann' });
    const client = await login(ctx.app, 'ann@example.test');
    for (const [field, label] of [
      ['name', 'name'],
      ['surname', 'surname'],
      ['companyName', 'company name'],
    ] as const) {
      const response = await client.request('PUT', `/api/user/update/${ann.id}`, { [field]: FORGED });
      expect((await errorsOf(response))[field]).toEqual([ONE_LINE(label)]);
    }
    await createUser(ctx, { email: 'boss@example.test', role: 'admin' });
    const boss = await login(ctx.app, 'boss@example.test');
    const response = await boss.request('PUT', `/api/user/update/${ann.id}`, { name: 'Ann\u2028Admin', companyName: 'Evil\nCorp' });
    const errors = await errorsOf(response);
    expect(errors.name).toEqual([ONE_LINE('name')]);
    expect(errors.companyName).toEqual([ONE_LINE('company name')]);
    expect(ctx.db.select().from(users).where(eq(users.id, ann.id)).get()).toMatchObject({ name: 'Ann', companyName: null });
  });

  it('still takes names of any script, with spaces around trimmed', async () => {
    const ann = await createUser(ctx, { email: 'ann@example.test', name: 'Ann' });
    const client = await login(ctx.app, 'ann@example.test');
    const response = await client.request('PUT', `/api/user/update/${ann.id}`, {
      name: '  Zoë Ŝtraße  ',
      surname: 'Ō’Brien-Łukasz',
      companyName: 'Métrologie & Fils',
    });
    expect(response.status).toBe(200);
    expect(ctx.db.select().from(users).where(eq(users.id, ann.id)).get()).toMatchObject({ name: 'Zoë Ŝtraße', surname: 'Ō’Brien-Łukasz' });
  });
});

describe('a name stored before the rule', () => {
  it('reaches the admins’ mail and the user’s greeting on one line', async () => {
    const eve = await createUser(ctx, { email: 'eve@example.test', name: 'Eve' });
    // A legacy row: written before names were refused with line breaks.
    ctx.db.update(users).set({ name: FORGED, surname: 'Smith\u2029Subject: x', companyName: 'Evil\r\nCorp' }).where(eq(users.id, eve.id)).run();
    const client = await login(ctx.app, 'eve@example.test');
    expect((await client.request('GET', `/api/user/request-license/${eve.id}`)).status).toBe(200);

    const admins = latestMailTo(ctx.config.outboxDir, ADMIN_EMAIL);
    const lines = (admins?.text ?? '').split('\n');
    expect(lines).toContain('User: Eve Bcc: victim@example.com Smith Subject: x');
    expect(lines).toContain('Company: Evil Corp');
    expect(lines.filter((line) => /^(Bcc|Subject):/.test(line))).toEqual([]);
    expect(admins?.subject).not.toMatch(/[\r\n]/);
    expect(admins?.html).not.toMatch(/Eve<br>/);

    const own = latestMailTo(ctx.config.outboxDir, 'eve@example.test');
    expect((own?.text ?? '').split('\n').filter((line) => /^(Bcc|Subject):/.test(line))).toEqual([]);
  });
});
