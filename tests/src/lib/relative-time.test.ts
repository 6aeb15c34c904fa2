import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from '../../../src/lib/relative-time.ts';

const now = new Date('2026-03-10T12:00:00.000Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe('relative creation times', () => {
  it('reads "now" within a minute either way', () => {
    expect(formatRelativeTime(ago(0), now)).toBe('now');
    expect(formatRelativeTime(ago(59), now)).toBe('now');
    expect(formatRelativeTime(ago(-30), now)).toBe('now');
  });

  it('truncates to the largest whole unit, always "… ago" in the past', () => {
    expect(formatRelativeTime(ago(60), now)).toBe('1 minute ago');
    expect(formatRelativeTime(ago(47 * 60), now)).toBe('47 minutes ago');
    expect(formatRelativeTime(ago(3600), now)).toBe('1 hour ago');
    expect(formatRelativeTime(ago(47 * 3600), now)).toBe('1 day ago');
    expect(formatRelativeTime(ago(3 * 86_400 + 5), now)).toBe('3 days ago');
    expect(formatRelativeTime(ago(8 * 86_400), now)).toBe('1 week ago');
    expect(formatRelativeTime(ago(65 * 86_400), now)).toBe('2 months ago');
    expect(formatRelativeTime(ago(800 * 86_400), now)).toBe('2 years ago');
  });

  it('says "in …" for a future date and nothing for a bad one', () => {
    expect(formatRelativeTime(ago(-2 * 86_400), now)).toBe('in 2 days');
    expect(formatRelativeTime(new Date('not a date'), now)).toBeUndefined();
  });
});
