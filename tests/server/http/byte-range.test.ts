// Range parsing and the download headers: the cases browsers and `curl -C -` send, and the odd ones.
import { describe, expect, it } from 'vitest';
import { attachmentDisposition, cleanFileName, contentRange, ifRangeAllowsRange, parseRangeHeader } from '../../../server/http/byte-range.ts';

describe('parseRangeHeader', () => {
  it('reads the three single-range forms', () => {
    expect(parseRangeHeader('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRangeHeader('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRangeHeader('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRangeHeader('Bytes = 5 - 7', 100)).toEqual({ start: 5, end: 7 });
  });

  it('clamps an end past the file and a suffix longer than the file', () => {
    expect(parseRangeHeader('bytes=50-1000', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRangeHeader('bytes=-1000', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRangeHeader('bytes=0-99999999999999999999999', 100)).toEqual({ start: 0, end: 99 });
  });

  it('answers unsatisfiable for a start past the end, an empty suffix, or any range of an empty file', () => {
    expect(parseRangeHeader('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRangeHeader('bytes=100-200', 100)).toBe('unsatisfiable');
    expect(parseRangeHeader('bytes=-0', 100)).toBe('unsatisfiable');
    expect(parseRangeHeader('bytes=0-', 0)).toBe('unsatisfiable');
  });

  it('ignores what it does not serve: no header, other units, several ranges, backwards or malformed ranges', () => {
    expect(parseRangeHeader(undefined, 100)).toBeNull();
    expect(parseRangeHeader('items=0-1', 100)).toBeNull();
    expect(parseRangeHeader('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRangeHeader('bytes=9-2', 100)).toBeNull();
    expect(parseRangeHeader('bytes=-', 100)).toBeNull();
    expect(parseRangeHeader('bytes=a-b', 100)).toBeNull();
  });
});

describe('ifRangeAllowsRange', () => {
  const etag = '"abc"';
  const date = 'Wed, 01 Jan 2026 00:00:00 GMT';
  it('keeps the range only for the same version', () => {
    expect(ifRangeAllowsRange(undefined, etag, date)).toBe(true);
    expect(ifRangeAllowsRange('"abc"', etag, date)).toBe(true);
    expect(ifRangeAllowsRange('"old"', etag, date)).toBe(false);
    expect(ifRangeAllowsRange('W/"abc"', etag, date)).toBe(false);
    expect(ifRangeAllowsRange(date, etag, date)).toBe(true);
    expect(ifRangeAllowsRange('Thu, 02 Jan 2026 00:00:00 GMT', etag, date)).toBe(false);
  });
});

describe('download headers', () => {
  it('formats Content-Range', () => {
    expect(contentRange({ start: 0, end: 9 }, 100)).toBe('bytes 0-9/100');
  });

  it('gives an ASCII fallback and the exact UTF-8 name', () => {
    expect(attachmentDisposition('setup-3.2.exe')).toBe(`attachment; filename="setup-3.2.exe"; filename*=UTF-8''setup-3.2.exe`);
    expect(attachmentDisposition('naïve "100%" (x).zip')).toBe(
      `attachment; filename="na_ve _100__ (x).zip"; filename*=UTF-8''na%C3%AFve%20%22100%25%22%20%28x%29.zip`,
    );
    expect(attachmentDisposition('日本')).toMatch(/^attachment; filename="__"; filename\*=UTF-8''%E6%97%A5%E6%9C%AC$/);
  });

  it('cleans uploaded file names', () => {
    expect(cleanFileName('C:\\fakepath\\setup.exe')).toBe('setup.exe');
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('a\r\nb\u0000.zip')).toBe('ab.zip');
    expect(cleanFileName('..')).toBe('');
    expect(cleanFileName('  ')).toBe('');
    expect([...cleanFileName('é'.repeat(300))]).toHaveLength(255);
  });
});
