import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readSnapshot } from '../../../src/lib/snapshot.ts';

const site = { name: 'Fallback', url: 'http://localhost:4321' };
const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snapshot-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  vi.restoreAllMocks();
});

describe('readSnapshot', () => {
  it('gives an empty, valid snapshot with a warning when the file is missing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const snapshot = readSnapshot(tempDir(), site);
    expect(snapshot).toMatchObject({ site, home: [], namespaces: { news: [], documentation: [], tutorials: [] }, downloads: [] });
    expect(warn).toHaveBeenCalledOnce();
  });

  it('reads site.json from the content directory', () => {
    const dir = tempDir();
    fs.copyFileSync(path.join(import.meta.dirname, '../../fixtures/snapshot.json'), path.join(dir, 'site.json'));
    const snapshot = readSnapshot(dir, site);
    expect(snapshot.site.name).toBe('Dimensional Control');
    expect(snapshot.namespaces.documentation[0]?.posts[1]?.title_slug).toBe('markdown-showcase');
  });

  it('fails loudly, naming the file and field, on a broken snapshot', () => {
    const dir = tempDir();
    fs.writeFileSync(
      path.join(dir, 'site.json'),
      '{"site":{"name":"x","url":"y"},"home":[],"namespaces":{"news":[],"documentation":[{"title":"T"}],"tutorials":[]},"downloads":[]}',
    );
    expect(() => readSnapshot(dir, site)).toThrow(
      /site\.json is not a valid site snapshot[^]*\n {2}namespaces\.documentation\[0\]\.title_slug: .*expected string/,
    );
    fs.writeFileSync(path.join(dir, 'site.json'), '{not json');
    expect(() => readSnapshot(dir, site)).toThrow(/site\.json is not valid JSON/);
  });
});
