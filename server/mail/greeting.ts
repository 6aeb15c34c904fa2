// The one greeting of every mail to a user (issue 17, item 3). A name is whatever someone typed at
// registration (up to 255 characters, links included), and the address it is mailed to may not be the
// typist's: so a mail never carries it as typed. It is cut to GREETING_NAME_MAX characters, and every word
// a mail client could turn into a link (a URL, a domain, an e-mail address) is left out, in both the text
// and the HTML part (docs/decisions/0026-mail-abuse.md). The verification mail, whose address nobody has
// proven yet, greets no one by name at all (server/mail/templates.ts).

export const GREETING_NAME_MAX = 40;

// Dots as a mail client or browser reads them in a host name: ASCII, ideographic, fullwidth, halfwidth.
const DOT = '[.\u3002\uFF0E\uFF61]';
/** A scheme or path (":" "/" "\"), an e-mail ("@"), "www", or a dot followed by two characters (a domain). */
const LINK_LIKE = new RegExp(`[:/\\\\@\uFF1A\uFF0F\uFF20]|^www|${DOT}[^\\s.\u3002\uFF0E\uFF61]{2,}`, 'iu');

/**
 * A typed name as one line, wherever a mail carries it (greeting, subject, the admins' details): invisible
 * format characters (zero-width, bidi overrides) go, so they cannot split a link into harmless-looking words;
 * controls and line or paragraph separators become spaces, and runs of space one. New names cannot hold
 * them (server/http/fields.ts), but a name stored before that rule must not forge a line such as "Bcc: …"
 * in a mail body either (issue 29, item 5).
 */
export function oneLineName(name: string): string {
  return name
    .replace(/\p{Cf}/gu, '')
    .replace(/[\p{Cc}\p{Zl}\p{Zp}\s]+/gu, ' ')
    .trim();
}

/** The part of a typed name fit to greet with: may be empty. */
export function greetingName(name: string): string {
  const words = oneLineName(name.normalize('NFKC'))
    .split(' ')
    .filter((word) => word !== '' && !LINK_LIKE.test(word));
  const joined = words.join(' ');
  if (joined.length <= GREETING_NAME_MAX) return joined;
  const cut = joined.slice(0, GREETING_NAME_MAX);
  const space = cut.lastIndexOf(' ');
  return (space > GREETING_NAME_MAX / 2 ? cut.slice(0, space) : cut).trim();
}

/** "Hello Ann," or, with nothing fit to greet with, "Hello,". */
export function greeting(name: string): string {
  const fit = greetingName(name);
  return fit ? `Hello ${fit},` : 'Hello,';
}
