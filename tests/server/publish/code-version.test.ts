// The code version a build records (server/publish/code-version.ts): a restart rebuilds in the background when
// the live build was made by other code, so everything that can change a build's bytes must count.
import { afterEach, describe, expect, it } from 'vitest';
import { codeVersion } from '../../../server/publish/code-version.ts';
import { createProjectFiles, onePatch } from '../../helpers/project-files.ts';

const projects = createProjectFiles();
afterEach(() => projects.cleanup());

/** A project with a page and, when given, one patch of a package (patches/, applied by `npm install`). */
const versionOf = (page: string, patch: Record<string, string> = {}) =>
  codeVersion(projects.project({ 'src/pages/index.astro': page, 'package-lock.json': '{}\n', ...patch }));

describe('the code version of a build', () => {
  it('is the same for the same files and changes with a page', () => {
    expect(versionOf('<p>Hello</p>\n')).toBe(versionOf('<p>Hello</p>\n'));
    expect(versionOf('<p>Hello again</p>\n')).not.toBe(versionOf('<p>Hello</p>\n'));
  });

  it('counts the patches applied to the packages: a changed patch is other code', () => {
    const unpatched = versionOf('<p>Hello</p>\n');
    const patched = versionOf('<p>Hello</p>\n', onePatch('-old\n+new\n'));
    expect(patched).not.toBe(unpatched);
    expect(versionOf('<p>Hello</p>\n', onePatch('-old\n+newer\n'))).not.toBe(patched);
  });
});
