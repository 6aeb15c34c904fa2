import { describe, expect, it } from 'vitest';
import { formatBytes, formatDate, formatTime } from '../../../src/lib/format.ts';

describe('formatBytes', () => {
  it('shows bytes whole and larger sizes in binary steps, one decimal below 10', () => {
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(245_760)).toBe('240 KB');
    expect(formatBytes(1_572_864)).toBe('1.5 MB');
    expect(formatBytes(8_912_345)).toBe('8.5 MB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.0 GB');
  });

  it('gives nothing for an unknown size, for the caller to leave out, rather than NaN or 0', () => {
    expect(formatBytes(0)).toBe('');
    expect(formatBytes(Number.NaN)).toBe('');
    expect(formatBytes(-5)).toBe('');
  });
});

describe('formatDate', () => {
  it('reads ISO and SQLite timestamps (the latter as UTC)', () => {
    // Midday, so the local date is the same in any time zone the tests run in.
    expect(formatDate('2026-11-21T12:00:00.000Z')).toBe('21 Nov 2026');
    expect(formatDate('2026-12-21 12:00:00')).toBe('21 Dec 2026');
  });

  it('answers undefined for empty or unreadable values, so the card can say N/A', () => {
    expect(formatDate(null)).toBeUndefined();
    expect(formatDate('')).toBeUndefined();
    expect(formatDate('soon')).toBeUndefined();
  });
});

describe('formatTime', () => {
  // Issue 28, 2.17: the publish toast said "5:40:15 PM" where the site writes 24-hour times.
  it('writes a time of day in 24-hour form, whatever the browser’s language', () => {
    const at = new Date(2026, 10, 26, 17, 40, 15).toISOString();
    expect(formatTime(at)).toBe('17:40:15');
    expect(formatTime(new Date(2026, 10, 26, 9, 5, 7).toISOString())).toBe('09:05:07');
  });

  it('is empty for nothing or an unreadable value', () => {
    expect(formatTime(null)).toBe('');
    expect(formatTime('not a time')).toBe('');
  });
});
