import { describe, expect, it } from 'vitest';
import { DOWNLOAD_NOTICES, downloadNotice } from '../../../src/lib/download-notice.ts';

describe('the download notice of an article', () => {
  it('asks anonymous readers to log in and unverified users to verify; verified users get none', () => {
    expect(downloadNotice(undefined, 'tutorials')).toBe('You must be logged in to download tutorial materials');
    expect(downloadNotice(null, 'tutorials')).toBe(DOWNLOAD_NOTICES.anonymousTutorials);
    expect(downloadNotice({ email_verified_at: null }, 'tutorials')).toBe('Only verified user can use download!');
    expect(downloadNotice({ email_verified_at: '2026-01-01T00:00:00.000Z' }, 'tutorials')).toBeNull();
  });

  it('speaks of tutorial materials on tutorials only (issue 14: news and documentation offer a plain download)', () => {
    expect(downloadNotice(null, 'news')).toBe('You must be logged in to use download');
    expect(downloadNotice(undefined, 'documentation')).toBe('You must be logged in to use download');
    expect(downloadNotice({ email_verified_at: null }, 'news')).toBe('Only verified user can use download!');
  });
});
