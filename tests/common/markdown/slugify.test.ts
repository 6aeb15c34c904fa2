// slugify as the markdown module exports it: the server's title_slug function (common/slugify.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { slugify } from '../../../common/markdown/index.ts';
import { slugify as serverSlugify } from '../../../common/slugify.ts';

describe('slugify', () => {
  it('is the same function the server uses for title_slug', () => {
    expect(slugify).toBe(serverSlugify);
  });

  it.each([
    ['Hello, World!', 'hello-world'],
    ['  Getting   Started  ', 'getting-started'],
    ['Café déjà vu', 'cafe-deja-vu'],
    ['Version 2.1 — release notes', 'version-2-1-release-notes'],
    ['C++ & C#', 'c-and-c'],
    ['🚀🚀', 'item'],
  ])('%s → %s', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it('is idempotent and yields lowercase ASCII words joined by single dashes, at most 80 long', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 120 }), (title) => {
        const slug = slugify(title);
        expect(slugify(slug)).toBe(slug);
        expect(slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
        expect(slug.length).toBeLessThanOrEqual(80);
      }),
      { numRuns: 2000 },
    );
  });
});
