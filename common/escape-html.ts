// Text escaped for HTML and XML character data and attribute values: the one escaper of every piece of markup
// the product writes by hand (mails, the unsubscribe page, the API reference page, the admin's video embeds,
// and through common/xml.ts the feeds, the sitemap and the appcast). `&#39;` for the apostrophe: every HTML
// and XML reader knows it (`&apos;` is not HTML 4, which some mail clients still read by).
const MARKUP = /[&<>"']/;

/**
 * One pass over the characters from the first one that needs escaping, copying the runs between them: a feed
 * escapes every item's HTML (5,000 posts in a build of the bench's largest site), where a replace with a
 * callback per character took three times as long (docs/decisions/0059-finalize-read-back.md).
 */
export function escapeHtml(text: string): string {
  const first = MARKUP.exec(text);
  if (!first) return text;
  let out = '';
  let copied = 0;
  for (let index = first.index; index < text.length; index++) {
    let entity: string;
    switch (text.charCodeAt(index)) {
      case 0x26:
        entity = '&amp;';
        break;
      case 0x3c:
        entity = '&lt;';
        break;
      case 0x3e:
        entity = '&gt;';
        break;
      case 0x22:
        entity = '&quot;';
        break;
      case 0x27:
        entity = '&#39;';
        break;
      default:
        continue;
    }
    out += text.slice(copied, index) + entity;
    copied = index + 1;
  }
  return out + text.slice(copied);
}
