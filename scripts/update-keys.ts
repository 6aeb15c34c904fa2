// `npm run update-keys -- rotate|list` (docs/updates.md#signing-keys): the keys that sign release files for the
// update feeds (Sparkle's edSignature), kept in $DATA_DIR/secrets/update-signing, published at
// /api/updates/v1/keys. The license-keys script's code with the update keyring (one code for both keyrings).
import path from 'node:path';
import { UPDATE_SIGNING } from '../server/signing/signing-keys.ts';
import { terminalText } from '../server/ops/terminal-text.ts';
import { main as keysMain } from './license-keys.ts';

export function main(argv: string[], rawOut = console.log, rawErr = console.error): Promise<number> {
  return keysMain(argv, rawOut, rawErr, UPDATE_SIGNING);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(terminalText(`update-keys failed: ${error instanceof Error ? error.message : String(error)}`));
      process.exitCode = 1;
    },
  );
}
