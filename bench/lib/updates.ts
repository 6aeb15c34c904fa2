// The update API part of the bench (issue 25): versioned releases on both channels with files for every
// platform (small, real files, so the server's background pass hashes and signs them as after an upload),
// one gated by PRO, and a license with PRO for GET /api/updates/v1/latest to answer.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../../server/db/client.ts';
import type { Config } from '../../server/env.ts';
import { insertDownloadItem, insertReleaseFile } from '../../server/features/downloads/index.ts';
import { insertLicenseType } from '../../server/features/license-types/queries.ts';
import { insertLicense } from '../../server/features/licensing/queries.ts';
import { localPathOf, releaseFileKey } from '../../server/storage/object-store/index.ts';
import { newStoredName } from '../../server/storage/release-files.ts';

/** What a Windows x64 install on 10.0.0 asks every few hours (10.x: above the demo releases the bench site also has). */
export const LATEST_PATH = '/api/updates/v1/latest?channel=stable&platform=windows&arch=x64&current=10.0.0';
export const BENCH_RELEASES = 20;

export function seedBenchReleases(db: Db, config: Pick<Config, 'uploadsDir' | 'privateFilesDir'>, userId: number): { key: string; newest: string } {
  const now = Date.now();
  for (let minor = 0; minor < BENCH_RELEASES; minor++) {
    const beta = minor % 5 === 4;
    const version = beta ? `10.${minor}.0-beta.1` : `10.${minor}.0`;
    const release = insertDownloadItem(db, {
      title: `Bench Suite ${version}`,
      body: `Release notes of **${version}**:\n\n- faster\n- ==better== reports\n- $O(n)$ search`,
      release: version,
      downloadable: 1,
      version,
      channel: beta ? 'beta' : 'stable',
      // The newest stable one needs PRO, as an entitled add-on would.
      entitlement: minor === BENCH_RELEASES - 2 ? 'PRO' : null,
      released_at: new Date(now - (BENCH_RELEASES - minor) * 86_400_000).toISOString(),
    });
    for (const [platform, arch] of [
      ['windows', 'x64'],
      ['windows', 'arm64'],
      ['macos', 'universal'],
      ['linux', 'x64'],
    ] as const) {
      const content = Buffer.from(`Bench Suite ${version} for ${platform} ${arch}\n`);
      const stored = newStoredName();
      // The bench site keeps the local store: the file goes where that store keeps the key.
      const target = localPathOf(config, releaseFileKey(stored));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, content);
      const digest = (algorithm: string) => crypto.createHash(algorithm).update(content).digest('hex');
      insertReleaseFile(db, {
        download_item_id: release.id,
        name: `bench-suite-${version}-${platform}-${arch}.bin`,
        stored_name: stored,
        size: content.length,
        sha256: digest('sha256'),
        sha512: digest('sha512'),
        platform,
        arch,
      });
    }
  }
  const type = insertLicenseType(db, { name: 'bench-pro', entitlements: JSON.stringify(['PRO']) });
  const license = insertLicense(db, { license_type_id: type.id, user_id: userId, active: 1, activated_at: new Date(now).toISOString() });
  if (!license.key) throw new Error('the bench license got no key');
  return { key: license.key, newest: `10.${BENCH_RELEASES - 2}.0` };
}
