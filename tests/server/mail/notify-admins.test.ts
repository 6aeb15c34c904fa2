// Nothing a visitor sends is lost on the way to an admin (issue 14, part 1): a contact message and a license request mail
// every admin who can sign in, NOTIFY_EMAIL and ADMIN_EMAIL, each once, with Reply-To the sender; with nobody to mail, the
// item still waits in the inbox.
import { afterEach, describe, expect, it } from 'vitest';
import { createUser, login } from '../../helpers/auth.ts';
import { readOutbox } from '../../helpers/mail.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';
import { createAdminFixture, type AdminFixture } from '../admin/admin-fixture.ts';
import { listInbox, requestLicense, sendContactMessage } from '../features/inbox/inbox-fixture.ts';

let fixture: AdminFixture | undefined;
let bare: TestContext | undefined;
afterEach(() => {
  fixture?.ctx.cleanup();
  bare?.cleanup();
  fixture = bare = undefined;
});

async function withTwoAdmins(env: Record<string, string> = {}) {
  fixture = await createAdminFixture({ env });
  await createUser(fixture.ctx, { email: 'second.admin@example.test', name: 'Second', role: 'admin' });
  await createUser(fixture.ctx, { email: 'banned.admin@example.test', name: 'Gone', role: 'admin', banned: true });
  return fixture;
}

const mailsWithSubject = (outboxDir: string, fragment: string) => readOutbox(outboxDir).filter((mail) => mail.subject.includes(fragment));

describe('notifications', () => {
  it('a contact message reaches every admin and NOTIFY_EMAIL, once each, with Reply-To the visitor', async () => {
    const { ctx } = await withTwoAdmins({ NOTIFY_EMAIL: 'Desk@Example.test' });
    await sendContactMessage(ctx.app, { name: 'Vera Visitor', email: 'vera@example.test', message: 'Do you train on site?' });

    const mails = mailsWithSubject(ctx.config.outboxDir, 'Contact message from Vera Visitor');
    expect(mails.map((mail) => mail.to).sort()).toEqual(['boss@example.test', 'desk@example.test', 'second.admin@example.test']);
    for (const mail of mails) {
      expect(mail.replyTo).toContain('vera@example.test');
      expect(mail.text).toContain('Do you train on site?');
    }
  });

  it('NOTIFY_EMAIL or ADMIN_EMAIL that is also an admin address is mailed once', async () => {
    const { ctx } = await withTwoAdmins({ NOTIFY_EMAIL: 'BOSS@example.test', ADMIN_EMAIL: 'second.admin@example.test', ADMIN_PASSWORD: 'admin-password-123' });
    await sendContactMessage(ctx.app, { name: 'Vera', email: 'vera@example.test', message: 'Hello' });
    expect(
      mailsWithSubject(ctx.config.outboxDir, 'Contact message')
        .map((mail) => mail.to.toLowerCase())
        .sort(),
    ).toEqual(['boss@example.test', 'second.admin@example.test']);
  });

  it('a license request reaches every admin and NOTIFY_EMAIL with Reply-To the user, and links to the inbox', async () => {
    const { ctx, user } = await withTwoAdmins({ NOTIFY_EMAIL: 'desk@example.test' });
    await requestLicense(user);

    const mails = mailsWithSubject(ctx.config.outboxDir, 'License request from Ann');
    expect(mails.map((mail) => mail.to).sort()).toEqual(['boss@example.test', 'desk@example.test', 'second.admin@example.test']);
    for (const mail of mails) {
      expect(mail.replyTo).toContain('ann@example.test');
      expect(mail.text).toContain('http://localhost:4321/admin#inbox');
    }
  });

  it('with no admin and no address configured, warns and keeps the message and the request in the inbox', async () => {
    bare = createTestContext();
    await sendContactMessage(bare.app, { name: 'Vera', email: 'vera@example.test', message: 'Anyone there?' });
    expect(bare.logLines.some((line) => line.includes('not sent: there is no admin and NOTIFY_EMAIL is not set'))).toBe(true);
    expect(readOutbox(bare.config.outboxDir)).toHaveLength(0);

    // The first admin made later finds it waiting.
    await createUser(bare, { email: 'late.admin@example.test', role: 'admin' });
    const admin = await login(bare.app, 'late.admin@example.test');
    const inbox = await listInbox(admin);
    expect(inbox.items.map((item) => [item.kind, item.email, item.message])).toEqual([['contact', 'vera@example.test', 'Anyone there?']]);
    expect(inbox.unread).toBe(1);
  });
});
