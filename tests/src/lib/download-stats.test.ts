// The admin's download statistics as tables (src/lib/download-stats.ts): versions by platform with totals,
// newest version first, and the share on the newest version in words.
import { describe, expect, it } from 'vitest';
import { checksByVersion, downloadsByVersion, NO_VERSION, onLatestText } from '../../../src/lib/download-stats.ts';

describe('downloadsByVersion', () => {
  it('pivots versions by platform, newest first, with row and overall totals', () => {
    const table = downloadsByVersion([
      { version: '3.9.0', platform: 'linux', count: 2 },
      { version: '3.10.0', platform: 'windows', count: 5 },
      { version: '3.10.0', platform: 'linux', count: 1 },
      { version: null, platform: 'any', count: 4 },
    ]);
    expect(table.platforms.map((platform) => platform.label)).toEqual(['Windows', 'Linux', 'All platforms']);
    expect(table.rows.map((row) => [row.version, row.total])).toEqual([
      ['3.10.0', 6],
      ['3.9.0', 2],
      [NO_VERSION, 4],
    ]);
    expect(table.rows[0]?.counts).toEqual({ windows: 5, linux: 1 });
    expect(table.total).toBe(12);
  });

  it('is empty without downloads', () => {
    expect(downloadsByVersion([])).toEqual({ platforms: [], rows: [], total: 0 });
  });
});

describe('update checks', () => {
  it('adds up the checks per version, an unreported version as "No version"', () => {
    expect(
      checksByVersion([
        { version: '3.1.0', count: 3 },
        { version: '', count: 1 },
        { version: '3.2.0-beta.1', count: 2 },
        { version: '3.2.0', count: 5 },
        { version: '3.10.0', count: 1 },
      ]),
    ).toEqual([
      { version: '3.10.0', count: 1 },
      // A pre-release is older than its release, as the update API orders them.
      { version: '3.2.0', count: 5 },
      { version: '3.2.0-beta.1', count: 2 },
      { version: '3.1.0', count: 3 },
      { version: NO_VERSION, count: 1 },
    ]);
  });

  it('says the share on the newest version, or that there were no checks', () => {
    expect(onLatestText(62.4, 30)).toBe('62% of the update checks in the last 30 days came from the newest version.');
    expect(onLatestText(null, 7)).toBe('No update checks in the last 7 days.');
  });
});
