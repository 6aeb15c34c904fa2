// The one escaper of hand-written markup (common/escape-html.ts): mails, the unsubscribe page, the API
// reference page, video embeds, and through escapeXml the feeds, sitemap and appcast.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../common/escape-html.ts';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

describe('escapeHtml', () => {
  it('escapes the five characters markup gives meaning to, and nothing else', () => {
    expect(escapeHtml(`<a href="x">Tom's & Jerry's</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;Tom&#39;s &amp; Jerry&#39;s&lt;/a&gt;');
    expect(escapeHtml('plain text, “quotes” and é')).toBe('plain text, “quotes” and é');
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });

  it('escapes exactly as the plain rule says, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 120 }), fc.constantFrom('', '<', '&', '"', "'", '>x<'), (text, extra) => {
        const input = `${extra}${text}${extra}`;
        expect(escapeHtml(input)).toBe(input.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char));
      }),
      { numRuns: 500 },
    );
  });
});
