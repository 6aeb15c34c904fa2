import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { slugify } from '../../../../src/lib/markdown/index.ts';

describe('slugify', () => {
  it.each([
    ['Hello, World!', 'hello-world'],
    ['  Getting   Started  ', 'getting-started'],
    ['Café déjà vu', 'cafe-deja-vu'],
    ["Don't panic", 'dont-panic'],
    ['Version 2.1 — release notes', 'version-2-1-release-notes'],
    ['C++ & C#', 'c-c'],
    ['Überprüfung der Maße', 'uberprufung-der-maße'],
    ['日本語のテスト', '日本語のテスト'],
    ['🚀🚀', ''],
    ['---', ''],
  ])('%s → %s', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it('cuts long slugs at a word boundary', () => {
    const slug = slugify('word '.repeat(40));
    expect(slug.length).toBeLessThanOrEqual(80);
    expect(slug.endsWith('word')).toBe(true);
  });

  it('is idempotent and only yields lowercase letters, digits and single inner dashes', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 120 }), (title) => {
      const slug = slugify(title);
      expect(slugify(slug)).toBe(slug);
      expect(slug).toMatch(/^(?:[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*)?$/u);
      expect(slug).toBe(slug.toLowerCase());
      expect(Array.from(slug).length).toBeLessThanOrEqual(80);
    }), { numRuns: 2000 });
  });
});
