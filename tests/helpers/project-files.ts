// Throwaway project roots holding a few files, for the hashes of "the code that made this" (the code version a
// build records, the markdown cache's name): what a real checkout holds is too large to vary in a test.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Projects made by `project(files)` (paths relative to the root, with their text) until `cleanup()`. */
export function createProjectFiles(): { project: (files: Record<string, string>) => string; cleanup: () => void } {
  const roots: string[] = [];
  return {
    project(files) {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'project-files-'));
      roots.push(root);
      for (const [name, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
        fs.writeFileSync(path.join(root, name), text);
      }
      return root;
    },
    cleanup() {
      for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** One patch of a package, as `npx patch-package NAME` writes it into patches/. */
export const onePatch = (text: string): Record<string, string> => ({ 'patches/some-package+1.0.0.patch': text });
