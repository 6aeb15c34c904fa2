// A page's Content-Security-Policy lists the hashes of its inline scripts. A new build takes the policy of a
// page whose bytes did not change from the site it replaces (finding inline scripts means scanning the whole
// page), so the reuse must follow the bytes exactly: a changed script gets its own hash, never the old one.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadStaticSite, type StaticSite } from '../../../server/static/static-site.ts';
import { makeTempDir } from '../../helpers/test-context.ts';
import { writeBuild as writeBuildFiles } from './fixture-build.ts';

let root: string;
beforeEach(() => {
  root = makeTempDir('site-policy-');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const page = (script: string) => `<!DOCTYPE html><html><head><script>${script}</script></head><body><h1>Page</h1></body></html>`;
const hashOf = (script: string) => `'sha256-${crypto.createHash('sha256').update(script).digest('base64')}'`;

const writeBuild = (name: string, files: Record<string, string>) => writeBuildFiles(root, name, files);

const policyOf = (site: StaticSite, requestPath: string) => {
  const headers = site.lookup(requestPath)?.identity.headers ?? [];
  return headers[headers.indexOf('Content-Security-Policy') + 1] ?? '';
};

describe('page policies across builds', () => {
  it('follow each page’s bytes: unchanged pages keep theirs, a changed inline script gets its own hash', async () => {
    const first = await loadStaticSite(writeBuild('one', { 'about/index.html': page('kept()'), 'contact/index.html': page('before()') }));
    expect(policyOf(first, '/about/')).toContain(hashOf('kept()'));
    expect(policyOf(first, '/contact/')).toContain(hashOf('before()'));

    const second = await loadStaticSite(writeBuild('two', { 'about/index.html': page('kept()'), 'contact/index.html': page('after()') }), { previous: first });
    expect(policyOf(second, '/about/')).toBe(policyOf(first, '/about/'));
    expect(policyOf(second, '/contact/')).toContain(hashOf('after()'));
    expect(policyOf(second, '/contact/')).not.toContain(hashOf('before()'));

    // The same bytes under a path whose policy differs (reading pages allow WebAssembly for search) get that path's policy.
    const third = await loadStaticSite(writeBuild('three', { 'news/index.html': page('kept()') }), { previous: second });
    const fresh = await loadStaticSite(writeBuild('fresh', { 'news/index.html': page('kept()') }));
    expect(policyOf(third, '/news/')).toBe(policyOf(fresh, '/news/'));
    expect(policyOf(third, '/news/')).not.toBe(policyOf(first, '/about/'));
  });
});
