// The small decisions under the fast path, one by one: path safety, encoding negotiation, script hashes.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineScriptHashes } from '../../../server/static/inline-scripts.ts';
import { acceptedEncodings } from '../../../server/static/respond.ts';
import { decodeSafePath, pathOfUrl } from '../../../server/static/safe-path.ts';
import { contentTypeOf } from '../../../server/static/content-types.ts';

describe('decodeSafePath', () => {
  it('decodes ordinary paths', () => {
    expect(decodeSafePath('/news/')).toBe('/news/');
    expect(decodeSafePath('/caf%C3%A9/')).toBe('/café/');
  });

  it.each([
    '/../x',
    '/a/..',
    '/./a',
    '/%2e%2e/x',
    '/%2E./x',
    '/a%2fb',
    '/a%2Fb',
    '/a%5cb',
    '/a\\b',
    '/a%00',
    '/a\0b',
    '/%zz',
    '/%c0%ae%c0%ae/',
    'relative',
    'http://evil/',
  ])('refuses %j', (raw) => {
    expect(decodeSafePath(raw)).toBeNull();
  });

  it('takes the path out of a request target', () => {
    expect(pathOfUrl('/a/b?x=1#y')).toBe('/a/b');
    expect(pathOfUrl('/a#y?x')).toBe('/a');
    expect(pathOfUrl('/a')).toBe('/a');
  });
});

describe('acceptedEncodings', () => {
  it.each([
    [undefined, { br: false, gzip: false }],
    ['gzip, deflate, br, zstd', { br: true, gzip: true }],
    ['gzip', { br: false, gzip: true }],
    ['br;q=0, gzip;q=0.8', { br: false, gzip: true }],
    ['*', { br: true, gzip: true }],
    ['*;q=0, gzip', { br: false, gzip: true }],
    ['identity', { br: false, gzip: false }],
    ['BR', { br: true, gzip: false }],
  ])('%j → %j', (header, expected) => {
    expect(acceptedEncodings(header)).toEqual(expected);
  });
});

describe('inlineScriptHashes', () => {
  const hash = (text: string) => `sha256-${crypto.createHash('sha256').update(text).digest('base64')}`;

  it('hashes inline classic and module scripts, import maps and speculation rules, once each', () => {
    const html = `<script>a()</script><SCRIPT type="module">b()</SCRIPT><script type=importmap>{}</script><script type="speculationrules">{"x":1}</script><script>a()</script>`;
    expect(inlineScriptHashes(html)).toEqual([hash('a()'), hash('b()'), hash('{}'), hash('{"x":1}')]);
  });

  it('ignores external scripts and data blocks', () => {
    const html = `<script src="/_astro/a.js"></script><script type="module" src="/b.js"></script><script type="application/ld+json">{"a":1}</script><script type='application/json'>[]</script>`;
    expect(inlineScriptHashes(html)).toEqual([]);
  });

  it('hashes the text exactly as written, whitespace included', () => {
    expect(inlineScriptHashes('<script>\n  go();\n</script>')).toEqual([hash('\n  go();\n')]);
  });
});

describe('contentTypeOf', () => {
  it('keeps the types (and charsets) every built file has always been served with', () => {
    const expected: Record<string, string> = {
      'index.html': 'text/html; charset=utf-8',
      'a.css': 'text/css; charset=utf-8',
      'a.js': 'text/javascript; charset=utf-8',
      'a.mjs': 'text/javascript; charset=utf-8',
      'a.json': 'application/json; charset=utf-8',
      'a.js.map': 'application/json; charset=utf-8',
      'site.webmanifest': 'application/manifest+json; charset=utf-8',
      'sitemap.xml': 'application/xml; charset=utf-8',
      'robots.txt': 'text/plain; charset=utf-8',
      'logo.svg': 'image/svg+xml',
      'a.PNG': 'image/png',
      'a.jpeg': 'image/jpeg',
      'a.webp': 'image/webp',
      'a.avif': 'image/avif',
      'favicon.ico': 'image/x-icon',
      'font.woff2': 'font/woff2',
      'pagefind.wasm': 'application/wasm',
      'manual.pdf': 'application/pdf',
      'clip.mp4': 'video/mp4',
      'clip.webm': 'video/webm',
      'pagefind/fragment/en_1.pf_fragment': 'application/octet-stream',
      'no-extension': 'application/octet-stream',
    };
    for (const [file, type] of Object.entries(expected)) expect([file, contentTypeOf(file)]).toEqual([file, type]);
  });
});
