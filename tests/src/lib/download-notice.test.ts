import { describe, expect, it } from 'vitest';
import { DOWNLOAD_NOTICES, downloadNotice } from '../../../src/lib/download-notice.ts';

describe('the download notice of an article', () => {
  it('asks anonymous readers to log in and unverified users to verify; verified users get none', () => {
    expect(downloadNotice(undefined)).toBe('You must be logged in to download tutorial materials');
    expect(downloadNotice(null)).toBe(DOWNLOAD_NOTICES.anonymous);
    expect(downloadNotice({ email_verified_at: null })).toBe('Only verified user can use download!');
    expect(downloadNotice({ email_verified_at: '2026-01-01T00:00:00.000Z' })).toBeNull();
  });
});
