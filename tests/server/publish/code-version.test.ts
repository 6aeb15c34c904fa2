// The code version a build records (server/publish/code-version.ts): a restart rebuilds in the background when
// the live build was made by other code, so everything that can change a build's bytes must count.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codeVersion } from '../../../server/publish/code-version.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A project with a page and, when given, one patch of a package (patches/, applied by `npm install`). */
function project(patch: string | null): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'code-version-'));
  dirs.push(root);
  fs.mkdirSync(path.join(root, 'src', 'pages'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src', 'pages', 'index.astro'), '<p>Hello</p>\n');
  fs.writeFileSync(path.join(root, 'package-lock.json'), '{}\n');
  if (patch !== null) {
    fs.mkdirSync(path.join(root, 'patches'));
    fs.writeFileSync(path.join(root, 'patches', 'some-package+1.0.0.patch'), patch);
  }
  return codeVersion(root);
}

describe('the code version of a build', () => {
  it('is the same for the same files and changes with a page', () => {
    expect(project(null)).toBe(project(null));
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'code-version-'));
    dirs.push(root);
    fs.mkdirSync(path.join(root, 'src', 'pages'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'pages', 'index.astro'), '<p>Hello again</p>\n');
    fs.writeFileSync(path.join(root, 'package-lock.json'), '{}\n');
    expect(codeVersion(root)).not.toBe(project(null));
  });

  it('counts the patches applied to the packages: a changed patch is other code', () => {
    const unpatched = project(null);
    const patched = project('-old\n+new\n');
    expect(patched).not.toBe(unpatched);
    expect(project('-old\n+newer\n')).not.toBe(patched);
  });
});
