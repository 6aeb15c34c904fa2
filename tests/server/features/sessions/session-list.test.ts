// Browser and system of a User-Agent as the session lists show them (server/features/sessions/present.ts):
// the major version only, and nothing an odd header could turn into an error.
import { describe, expect, it } from 'vitest';
import { describeUserAgent } from '../../../../server/features/sessions/present.ts';
import { CHROME_LINUX, SAFARI_IPHONE } from '../../../helpers/user-agents.ts';

describe('describeUserAgent', () => {
  it.each([
    [CHROME_LINUX, 'Chrome 131', 'Linux'],
    [SAFARI_IPHONE, 'Safari 17', 'iOS 17.1'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0', 'Firefox 128', 'Windows 10'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
      'Microsoft Edge 131',
      'Windows 10',
    ],
  ])('%s → %s on %s', (userAgent, browser, system) => {
    expect(describeUserAgent(userAgent)).toEqual({ browser, system });
  });

  it('answers unknown (null) for a missing or unreadable header, never throwing', () => {
    for (const userAgent of [null, '', 'x', '()))(((', 'a'.repeat(512)]) {
      expect(describeUserAgent(userAgent)).toEqual({ browser: null, system: null });
    }
  });
});
