// The snapshot schema is the contract between the exporter and the build: the committed fixture must
// match it exactly, and a snapshot with a wrong field must be refused with that field's path.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSnapshot, type SiteSnapshot } from '../../common/snapshot-schema.ts';

const fixtureText = fs.readFileSync(path.join(import.meta.dirname, '../fixtures/snapshot.json'), 'utf8');
const fixture = (): SiteSnapshot => JSON.parse(fixtureText) as SiteSnapshot;

describe('parseSnapshot', () => {
  it('accepts the committed fixture as it is, dropping nothing', () => {
    expect(parseSnapshot(fixture(), 'snapshot.json')).toEqual(fixture());
  });

  it('refuses a wrong field, naming the source and the path of the field', () => {
    const broken = fixture();
    const post = broken.namespaces.news[0]!.posts[0]!;
    (post as { created_at: unknown }).created_at = 'last Tuesday';
    (broken.downloads[0] as { is_current: unknown }).is_current = 1;
    expect(() => parseSnapshot(broken, 'content/site.json')).toThrow(
      /^content\/site\.json is not a valid site snapshot .*:\n {2}namespaces\.news\[0\]\.posts\[0\]\.created_at: .+\n {2}downloads\[0\]\.is_current: .*expected boolean/,
    );
  });

  it('refuses a snapshot missing a namespace or holding something else entirely', () => {
    const { tutorials: _, ...namespaces } = fixture().namespaces;
    expect(() => parseSnapshot({ ...fixture(), namespaces }, 'site.json')).toThrow(/\n {2}namespaces\.tutorials: .*expected array/);
    expect(() => parseSnapshot([], 'site.json')).toThrow(/\n {2}\(the snapshot\): .*expected object/);
  });

  it('lists at most five problems', () => {
    const broken = fixture();
    for (const item of broken.downloads) (item as { sha256: unknown }).sha256 = null;
    broken.home = broken.home.map((section) => ({ ...section, updated_at: 'never' }));
    const message = (() => {
      try {
        parseSnapshot(broken, 'site.json');
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    })();
    expect(message.split('\n').filter((line) => line.startsWith('  ')).length).toBe(6);
    expect(message).toMatch(/\n {2}… and \d+ more$/);
  });

  it('keeps only the fields it describes', () => {
    const withExtra = { ...fixture(), secret: 'x', site: { ...fixture().site, token: 'y' } };
    const parsed = parseSnapshot(withExtra, 'site.json');
    expect(parsed).not.toHaveProperty('secret');
    expect(parsed.site).toEqual(fixture().site);
  });
});
