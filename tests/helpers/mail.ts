// Mail helpers for tests: a small RFC 822 / MIME reader (mailparser is not available here), the outbox
// reader flows use to find the link a user would click, and a real SMTP server that keeps what it gets.
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ParsedMail {
  /** Header names lower-cased; values unfolded and with RFC 2047 encoded words decoded. */
  headers: Map<string, string>;
  from: string;
  to: string;
  subject: string;
  replyTo: string | undefined;
  /** Decoded text/plain part (undefined when the message has none). */
  text: string | undefined;
  /** Decoded text/html part. */
  html: string | undefined;
  /** Content types of the leaf parts, in order. */
  partTypes: string[];
  /** Set when read from the outbox. */
  file?: string;
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

function splitHeaderBlock(raw: string): Part {
  const normalized = raw.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? '' : normalized.slice(end + 2);
  const headers = new Map<string, string>();
  // Folded header lines continue with whitespace (RFC 5322 2.2.3).
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), decodeEncodedWords(line.slice(colon + 1).trim()));
  }
  return { headers, body };
}

/** RFC 2047 encoded words (=?charset?Q|B?...?=), as nodemailer writes non-ASCII subjects and names. */
function decodeEncodedWords(value: string): string {
  // Whitespace between two adjacent encoded words is not part of the text.
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_match, _charset: string, encoding: string, data: string) =>
      encoding.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintableBytes(data.replace(/_/g, ' ')).toString('utf8'),
    );
}

function decodeQuotedPrintableBytes(data: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < data.length; i += 1) {
    const char = data[i] as string;
    const hex = data.slice(i + 1, i + 3);
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(char, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

export function decodeQuotedPrintable(body: string): string {
  // A "=" at the end of a line is a soft break that the encoder inserted to keep lines short.
  return decodeQuotedPrintableBytes(body.replace(/=\r?\n/g, '')).toString('utf8');
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body);
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return part.body;
}

function leafParts(part: Part): Part[] {
  const contentType = part.headers.get('content-type') ?? 'text/plain';
  if (!/^multipart\//i.test(contentType)) return [part];
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) throw new Error(`multipart without boundary: ${contentType}`);
  const sections = part.body.split(`--${boundary}`);
  // sections[0] is the preamble; the closing delimiter leaves a section that starts with "--".
  return sections
    .slice(1)
    .filter((section) => !section.startsWith('--'))
    .map((section) => splitHeaderBlock(section.replace(/^\n/, '').replace(/\n$/, '')))
    .flatMap(leafParts);
}

export function parseMail(raw: string): ParsedMail {
  const message = splitHeaderBlock(raw);
  const leaves = leafParts(message);
  const typeOf = (part: Part) => (part.headers.get('content-type') ?? 'text/plain').split(';')[0]?.trim().toLowerCase() ?? '';
  const find = (type: string) => leaves.find((part) => typeOf(part) === type);
  const text = find('text/plain');
  const html = find('text/html');
  return {
    headers: message.headers,
    from: message.headers.get('from') ?? '',
    to: message.headers.get('to') ?? '',
    subject: message.headers.get('subject') ?? '',
    replyTo: message.headers.get('reply-to'),
    text: text && decodeBody(text),
    html: html && decodeBody(html),
    partTypes: leaves.map(typeOf),
  };
}

/** Every .eml in the outbox, oldest first (file names sort in sending order). */
export function readOutbox(outboxDir: string): ParsedMail[] {
  if (!fs.existsSync(outboxDir)) return [];
  return fs
    .readdirSync(outboxDir)
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => {
      const file = path.join(outboxDir, name);
      return { ...parseMail(fs.readFileSync(file, 'utf8')), file };
    });
}

/** The newest outbox message to an address (matched inside the To header), or undefined. */
export function latestMailTo(outboxDir: string, address: string): ParsedMail | undefined {
  return readOutbox(outboxDir)
    .filter((mail) => mail.to.toLowerCase().includes(address.toLowerCase()))
    .at(-1);
}

/** The http(s) links of a decoded text part, in order. */
export function linksIn(text: string | undefined): string[] {
  return (text?.match(/https?:\/\/[^\s<>"']+/g) ?? []).map((link) => link.replace(/[.,;:!?)\]]+$/, ''));
}

export interface SmtpCapture {
  /** smtp://127.0.0.1:PORT for SMTP_URL. */
  url: string;
  /** Raw messages as received, in order. */
  messages: Array<{ from: string; to: string[]; raw: string }>;
  close(): Promise<void>;
}

/** A real SMTP server on a random loopback port: no TLS, no auth, keeps every message it is given. */
export async function startSmtpCapture(): Promise<SmtpCapture> {
  const messages: SmtpCapture['messages'] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // The product pools SMTP connections: close() must not wait out a pooled idle client (30 s by default).
    closeTimeout: 50,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
