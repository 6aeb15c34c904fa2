// The development outbox: each message as an .eml file in $DATA_DIR/outbox, openable in any mail client.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../storage/data-dir.ts';

let sequence = 0;

/**
 * Writes a rendered message and returns the file's path. Names sort in sending order (time, then a
 * per-process counter for messages within the same millisecond). The file appears complete or not at all
 * (written under a temporary name, then renamed), so a test or developer watching the directory never
 * reads half a message.
 */
export async function writeOutboxFile(outboxDir: string, message: Buffer): Promise<string> {
  // Messages carry working sign-in links: for the server's user only (server/storage/data-dir.ts).
  await fs.mkdir(outboxDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  sequence += 1;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const name = `${stamp}-${String(sequence).padStart(6, '0')}-${randomBytes(3).toString('hex')}.eml`;
  const file = path.join(outboxDir, name);
  const temporary = `${file}.tmp`;
  await fs.writeFile(temporary, message, { mode: PRIVATE_FILE_MODE });
  await fs.rename(temporary, file);
  return file;
}

/** The http(s) links of a plain-text body, in order, without duplicates. */
export function extractLinks(text: string): string[] {
  const links = text.match(/https?:\/\/[^\s<>"']+/g) ?? [];
  // A sentence may end right after a link; the trailing punctuation is not part of it.
  return [...new Set(links.map((link) => link.replace(/[.,;:!?)\]]+$/, '')))];
}
