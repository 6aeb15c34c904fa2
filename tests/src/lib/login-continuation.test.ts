import { describe, expect, it } from 'vitest';
import { afterLoginPath, loginNote, loginRedirect, safeContinuation } from '../../../src/lib/login-continuation.ts';

const ORIGIN = 'https://site.example';

describe('the page a login continues to (issue 14)', () => {
  it('keeps paths of this site, with their query and hash', () => {
    expect(safeContinuation('/dashboard', ORIGIN)).toBe('/dashboard');
    expect(safeContinuation('/admin?tab=users#top', ORIGIN)).toBe('/admin?tab=users#top');
    expect(safeContinuation(new URLSearchParams(loginRedirect('/dashboard').slice(2)).get('login'), ORIGIN)).toBe('/dashboard');
  });

  it('refuses anything that could leave the site (no open redirect)', () => {
    for (const hostile of [
      'https://evil.test/',
      '//evil.test/dashboard',
      '/\\evil.test',
      '\\\\evil.test',
      'javascript:alert(1)',
      '/\tevil',
      ' /dashboard',
      'dashboard',
      '',
      null,
      undefined,
    ]) {
      expect(safeContinuation(hostile, ORIGIN), String(hostile)).toBeNull();
    }
  });

  it('says why the login opened', () => {
    expect(loginNote('/dashboard')).toBe('Log in to see your dashboard');
    expect(loginNote('/admin')).toBe('Log in to see the admin console');
    expect(loginNote('/administrator')).toBe('Log in to continue');
  });

  it('sends a user who is not an admin to the dashboard instead of the admin console', () => {
    expect(afterLoginPath('/admin', true)).toBe('/admin');
    expect(afterLoginPath('/admin', false)).toBe('/dashboard');
    expect(afterLoginPath('/dashboard', false)).toBe('/dashboard');
  });
});
