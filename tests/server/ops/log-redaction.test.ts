// No secret ever reaches a log line (docs/decisions/0031-observability.md): the real account flows
// (register, verify, login), a password reset, two-factor enrolment and sign-in, a download and the licensing API, run with the test and
// production default (NODE_ENV=test: links are not kept whole), then every line the logger produced, at
// every level, is searched for the actual secret values used: passwords, bot tokens, session and XSRF
// cookies, the verification link and its signature, the reset link and its token, the TOTP secret, codes
// and recovery codes, license keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertLicense } from '../../../server/features/licensing/queries.ts';
import { DAY_MS } from '../../../server/features/licensing/license-dates.ts';
import { createLogger } from '../../../server/log.ts';
import { createAdminFixture, type AdminFixture } from '../admin/admin-fixture.ts';
import { anonymousClient, linkIn, STRONG_PASSWORD, waitForMailTo } from '../../helpers/accounts.ts';
import { createClient, login } from '../../helpers/auth.ts';
import { solveBotChallenge } from '../../helpers/botcheck.ts';
import { createReleaseDirect } from '../../helpers/downloads.ts';
import { codeFor, enrollTwoFactor, passwordStep } from '../../helpers/two-factor.ts';
import { captureConsole, licenseKeysIn } from '../../helpers/license-keys-in-logs.ts';

let fixture: AdminFixture;
let printed: ReturnType<typeof captureConsole>;
/** Every secret value the flows used; none may appear in any log line. */
const secrets = new Set<string>();

function keep(value: string | null | undefined): void {
  if (value) secrets.add(value);
}

function cookieSecrets(cookies: Map<string, string>): void {
  for (const [name, value] of cookies) if (name !== 'signed_in') keep(value);
}

beforeAll(async () => {
  printed = captureConsole();
  fixture = await createAdminFixture({ env: { NODE_ENV: 'test', LOG_LEVEL: 'silent' } });
});
afterAll(() => {
  printed.restore();
  fixture.ctx.cleanup();
});

describe('log lines of the real flows', () => {
  it('hold no password, token, cookie, link, TOTP secret or license key', async () => {
    const { ctx } = fixture;
    const email = 'logs-ann@example.test';
    const newPassword = 'violet-harbour-73-compass';
    keep(STRONG_PASSWORD);
    keep(newPassword);

    // Register, verify, log in.
    const visitor = await anonymousClient(ctx.app);
    const registrationToken = await solveBotChallenge(ctx.app);
    keep(registrationToken);
    const registered = await visitor.request('POST', '/api/auth/create', {
      name: 'Logs Ann',
      email,
      password: STRONG_PASSWORD,
      password_confirmation: STRONG_PASSWORD,
      g_token: registrationToken,
    });
    expect(registered.status).toBeLessThan(300);
    cookieSecrets(visitor.cookies);
    const verification = linkIn(await waitForMailTo(ctx.config.outboxDir, email), '/email/verify/');
    keep(verification);
    keep(new URL(verification).searchParams.get('signature'));
    const verified = await visitor.request('GET', new URL(verification).pathname + new URL(verification).search);
    expect(verified.status).toBe(302);
    expect(verified.headers.get('Location')).toContain('validation=1');
    const ann = await login(ctx.app, email, STRONG_PASSWORD);
    cookieSecrets(ann.cookies);

    // A wrong password and a forged bot token are logged as refusals, without what was sent.
    const guesser = createClient(ctx.app);
    await guesser.fetchCsrfCookie();
    keep('wrong-guess-password-81');
    expect(
      (await guesser.request('POST', '/api/auth/login', { email, password: 'wrong-guess-password-81', g_token: await solveBotChallenge(ctx.app) })).status,
    ).toBe(422);
    keep('forged-bot-token-value-5521');
    expect((await guesser.request('POST', '/api/auth/login', { email, password: 'x', g_token: 'forged-bot-token-value-5521' })).status).toBe(422);

    // Password reset.
    const resetter = await anonymousClient(ctx.app);
    expect((await resetter.request('POST', '/api/auth/reset-password', { email })).status).toBe(200);
    const resetLink = new URL(
      linkIn(await waitForMailTo(ctx.config.outboxDir, email, (mail) => (mail.text ?? '').includes('reset-pasword')), '/reset-pasword/form'),
    );
    keep(resetLink.href);
    keep(resetLink.searchParams.get('token'));
    const reset = await resetter.request('POST', '/api/auth/new-password', {
      token: resetLink.searchParams.get('token'),
      email,
      password: newPassword,
      password_confirmation: newPassword,
    });
    expect(reset.status).toBe(200);
    const again = await login(ctx.app, email, newPassword);
    cookieSecrets(again.cookies);

    // Two-factor: enrolment (the TOTP secret and recovery codes), then a sign-in through both steps, one
    // with a code and one with a recovery code.
    const enrollment = await enrollTwoFactor(again, () => Date.now());
    keep(enrollment.secret);
    for (const code of enrollment.recoveryCodes) keep(code);
    const withCode = await passwordStep(ctx.app, email, { password: newPassword });
    expect(withCode.response.status).toBe(200);
    cookieSecrets(withCode.client.cookies);
    // The code of the next step: the one enabling two-factor just spent the current one.
    const code = codeFor(enrollment.secret, Date.now(), 1);
    keep(code);
    expect((await withCode.client.request('POST', '/api/auth/two-factor', { code })).status).toBe(200);
    cookieSecrets(withCode.client.cookies);
    const withRecovery = await passwordStep(ctx.app, email, { password: newPassword });
    expect((await withRecovery.client.request('POST', '/api/auth/two-factor', { recovery_code: enrollment.recoveryCodes[0] })).status).toBe(200);
    cookieSecrets(withRecovery.client.cookies);

    // A download.
    const release = createReleaseDirect(ctx, { downloadable: true, file: { name: 'tool.bin', content: Buffer.from('binary bytes') } });
    expect((await again.request('POST', '/api/downloads/download', { id: release.id })).status).toBe(200);

    // Licensing: a license of the user's, activated and validated by the software, and an unknown key.
    const license = insertLicense(ctx.db, {
      license_type_id: fixture.typeId('trial'),
      user_id: again.user.id,
      active: 1,
      expire: 30,
      activated_at: new Date(ctx.now()).toISOString(),
      expire_date: new Date(ctx.now() + 30 * DAY_MS).toISOString(),
      max_machines: 3,
    });
    const call = (path: string, body: unknown) =>
      ctx.app.request(`/api/licensing/v1${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect((await call('/activate', { key: license.key, fingerprint: 'fp-logs-1' })).status).toBe(201);
    expect((await call('/validate', { key: license.key, fingerprint: 'fp-logs-1' })).status).toBe(200);
    const unknownKey = 'DCTL-ABCDE-FGHJK-MNPQR-STVWX-YZ012-34567';
    keep(unknownKey);
    expect((await call('/activate', { key: unknownKey, fingerprint: 'fp-logs-2' })).status).toBeGreaterThanOrEqual(400);
    // The owner sees the key in the dashboard's license list.
    expect((await again.request('GET', '/api/user')).status).toBe(200);
    for (const key of licenseKeysIn(ctx.db)) keep(key);
    cookieSecrets(fixture.admin.cookies);
    cookieSecrets(fixture.user.cookies);

    const lines = [...ctx.logLines, ...printed.lines];
    // The flows were logged (one access line per request, the outbox's mail lines), so the search means something.
    expect(lines.filter((line) => line.includes('"route":"/api/auth/login"')).length).toBeGreaterThanOrEqual(3);
    expect(lines.some((line) => line.includes('"route":"/api/licensing/v1/activate"'))).toBe(true);
    expect(lines.some((line) => line.includes('"route":"/api/auth/email/verify/:id/:hash"'))).toBe(true);
    expect(secrets.size).toBeGreaterThanOrEqual(12);
    for (const secret of secrets)
      expect(
        lines.filter((line) => line.includes(secret)),
        secret,
      ).toEqual([]);
  });
});

describe('the redaction itself', () => {
  it('replaces secret fields and recognisable secrets in messages, errors and details', () => {
    const lines: string[] = [];
    const log = createLogger('silent', (line) => lines.push(line));
    const secret = 'JBSWY3DPEHPK3PXP';
    log.info('login for ann', { password: 'hunter2-secret', nested: { totp_secret: secret, token: 'tok-123456' }, headers: { Cookie: 'session=abc123def' } });
    log.warn(`scan otpauth://totp/Site:ann?secret=${secret}&issuer=Site and https://example.test/reset-pasword/form?token=tok-98765&email=a%40b`);
    log.error('activation failed', new Error('bad key DCTL-ABCDE-FGHJK-MNPQR-STVWX-YZ012-34567 with Authorization: Bearer abc.def.ghi'));
    const all = lines.join('\n');
    for (const value of ['hunter2-secret', secret, 'tok-123456', 'abc123def', 'tok-98765', 'DCTL-ABCDE', 'abc.def.ghi']) expect(all).not.toContain(value);
    expect(all).toContain('[redacted]');
    // What is not secret stays readable.
    expect(all).toContain('https://example.test/reset-pasword/form?[redacted]');
    expect(all).toContain('activation failed');
  });

  it("keeps the bucket's secret key and a presigned link's signature out of the log (docs/decisions/0050-object-storage.md)", () => {
    const lines: string[] = [];
    const log = createLogger('silent', (line) => lines.push(line));
    log.info('bucket client', { region: 'eu-central-1', secretAccessKey: 'wJalrXUtnFEMI-K7MDENG', S3_SECRET_ACCESS_KEY: 'other-secret-value' });
    log.warn('link issued: https://bucket.example/private/news/abc?X-Amz-Expires=300&X-Amz-Signature=0123456789abcdef0123456789abcdef');
    const all = lines.join('\n');
    for (const value of ['wJalrXUtnFEMI-K7MDENG', 'other-secret-value', '0123456789abcdef0123456789abcdef']) expect(all).not.toContain(value);
    expect(all).toContain('eu-central-1');
  });
});
