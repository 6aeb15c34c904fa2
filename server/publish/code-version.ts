// Which code made a build (issue 31, item 2). A restart serves the build it finds at once; when that build
// was made by other code (a deploy), readers keep it while a full build refreshes it in the background.
// The version is a hash of what decides a build's bytes: the site's source, the shared code, the static
// files, the build pipeline and the installed dependencies (DEPENDENCY_INPUTS). It is computed from the files
// themselves, so it works the same in a fresh clone, a tarball or a deploy without `.git`.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Beside the build's files; dot-files are served by neither Node nor nginx (server/static, deploy/nginx.conf). */
export const CODE_VERSION_FILE = '.code-version';

/**
 * What is installed besides the project's own code: the locked package versions and the patches `npm install`
 * applies to them (docs/decisions/0066-tree-walk-patch.md). Every hash of "the code that made this" includes
 * them: the code version here and the markdown cache's name (build-runner.ts).
 */
export const DEPENDENCY_INPUTS = ['package-lock.json', 'patches'] as const;

/** Relative to the project root: everything whose change can change what a build writes. */
const BUILD_INPUTS = ['package.json', ...DEPENDENCY_INPUTS, 'astro.config.mjs', 'tsconfig.json', 'src', 'common', 'public', 'server/publish'];

const cache = new Map<string, string>();

/** The code version of the project at `projectRoot`: computed once per process (the code does not change under it). */
export function codeVersion(projectRoot: string): string {
  const known = cache.get(projectRoot);
  if (known) return known;
  const version = hashProjectFiles(projectRoot, BUILD_INPUTS).slice(0, 32);
  cache.set(projectRoot, version);
  return version;
}

/** The SHA-256 (hex) of every file under `inputs` (files or folders relative to `projectRoot`), with their paths. */
export function hashProjectFiles(projectRoot: string, inputs: readonly string[]): string {
  const hash = crypto.createHash('sha256');
  for (const input of inputs) {
    for (const file of listFiles(path.join(projectRoot, input))) {
      // The path too: a file renamed is a change.
      hash.update(path.relative(projectRoot, file)).update('\0').update(fs.readFileSync(file)).update('\0');
    }
  }
  return hash.digest('hex');
}

function listFiles(entry: string): string[] {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(entry);
  } catch {
    return [];
  }
  if (stat.isFile()) return [entry];
  if (!stat.isDirectory()) return [];
  return fs
    .readdirSync(entry, { recursive: true, withFileTypes: true })
    .filter((dirent) => dirent.isFile())
    .map((dirent) => path.join(dirent.parentPath, dirent.name))
    .sort();
}

/**
 * Records the version in a finished build. Any file already there is a hard link to the previous build's
 * (an incremental publish, docs/decisions/0044-incremental-publish.md): it is replaced, never written into.
 */
export function recordCodeVersion(buildDir: string, version: string): void {
  const file = path.join(buildDir, CODE_VERSION_FILE);
  fs.rmSync(file, { force: true });
  fs.writeFileSync(file, `${version}\n`);
}

/** The version a build recorded, or null for a build made before versions were recorded. */
export function readCodeVersion(buildDir: string): string | null {
  try {
    return fs.readFileSync(path.join(buildDir, CODE_VERSION_FILE), 'utf8').trim() || null;
  } catch {
    return null;
  }
}
