// First-start seeding (issue 2, item 4): license types always; then, exactly once per database, the
// admin account and the demo content. A marker in `settings` makes the second start seed nothing.
import crypto from 'node:crypto';
import type { Config } from '../env.ts';
import { createObjectStore, releaseFileKey, type ObjectStore } from '../storage/object-store/index.ts';
import type { Logger } from '../log.ts';
import { hashPassword } from '../auth/passwords.ts';
import { writeTransaction, type Db } from '../db/client.ts';
import { DEMO_DOWNLOADS, DEMO_HOME_SECTIONS, DEMO_SECTIONS } from './demo-content.ts';
import { generateDemoHomeImage, type GeneratedImage } from './demo-images.ts';
import { insertDownloadItem, insertReleaseFile } from '../features/downloads/index.ts';
import { insertHomeImage, insertHomeSection } from '../features/home/index.ts';
import { ensureLicenseTypes } from '../features/license-types/index.ts';
import { ensureLegalPages } from '../features/legal-pages/index.ts';
import { insertPost } from '../features/content/index.ts';
import { insertSection } from '../features/content/index.ts';
import { getSetting, setSetting } from '../db/queries/settings.ts';
import { getUserByEmail, insertUser } from '../db/queries/users.ts';
import { NAMESPACES } from '../db/schema.ts';

const SEEDED_MARKER = 'seeded_at';
export const DEMO_ADMIN_EMAIL = 'admin@example.com';

export interface SeedResult {
  seeded: boolean;
  /** Set only on the start that created a generated demo admin: printed once, never stored in clear. */
  generatedAdmin?: { email: string; password: string };
}

interface DemoFile {
  name: string;
  platform: 'windows' | 'macos' | 'linux' | 'any';
  arch: 'x64' | 'arm64' | 'universal';
  storedName: string;
  size: number;
  sha256: string;
  sha512: string;
}

/** `storage`: where the demo files go (the configured store when not given: docs/decisions/0050-object-storage.md). */
export async function seedDatabase(deps: { config: Config; db: Db; log: Logger; storage?: ObjectStore }): Promise<SeedResult> {
  const { config, db, log } = deps;
  const storage = deps.storage ?? createObjectStore(config);
  ensureLicenseTypes(db);
  // Every start, not only the first: a site that existed before the legal pages gets their starting text too.
  ensureLegalPages(db);
  if (getSetting(db, SEEDED_MARKER)) return { seeded: false };

  const admin = await prepareAdmin(config, log);
  const images = config.seedDemo ? await drawDemoImages(storage) : [];
  const files = config.seedDemo ? await writeDemoDownloadFiles(storage) : [];

  try {
    writeTransaction(db, () => {
      let adminId: number | null = null;
      if (admin) {
        const existing = getUserByEmail(db, admin.email);
        adminId = existing
          ? existing.id
          : insertUser(db, {
              name: 'Administrator',
              email: admin.email,
              password_hash: admin.passwordHash,
              role: 'admin',
              email_verified_at: new Date().toISOString(),
            }).id;
      }
      if (config.seedDemo) insertDemoContent(db, adminId, images, files);
      setSetting(db, SEEDED_MARKER, new Date().toISOString());
    });
  } catch (error) {
    // Nothing half-seeded: the transaction rolled back, so remove the files drawn for it too.
    for (const key of [...images.flat().flatMap((image) => image.keys), ...files.flat().map((f) => releaseFileKey(f.storedName))]) await storage.delete(key);
    throw error;
  }

  return { seeded: true, generatedAdmin: admin?.generated ? { email: admin.email, password: admin.password } : undefined };
}

async function prepareAdmin(config: Config, log: Logger) {
  if (config.adminEmail && config.adminPassword) {
    return { email: config.adminEmail, password: config.adminPassword, passwordHash: await hashPassword(config.adminPassword), generated: false };
  }
  if (config.isProduction) {
    log.warn('No ADMIN_EMAIL/ADMIN_PASSWORD set: no admin account was created. Set both and restart on an empty database.');
    return null;
  }
  const password = crypto.randomBytes(12).toString('base64url');
  return { email: DEMO_ADMIN_EMAIL, password, passwordHash: await hashPassword(password), generated: true };
}

async function drawDemoImages(storage: ObjectStore): Promise<GeneratedImage[][]> {
  const drawn: GeneratedImage[][] = [];
  let seed = 0;
  for (const section of DEMO_HOME_SECTIONS) {
    const forSection: GeneratedImage[] = [];
    for (const theme of section.imageThemes) forSection.push(await generateDemoHomeImage(storage, theme, seed++));
    drawn.push(forSection);
  }
  return drawn;
}

/** The files of each demo release, written through the store; their signatures follow in the background (downloads job). */
async function writeDemoDownloadFiles(storage: ObjectStore): Promise<DemoFile[][]> {
  const files: DemoFile[][] = [];
  for (const item of DEMO_DOWNLOADS) {
    const ofItem: DemoFile[] = [];
    for (const file of item.files) {
      const content = Buffer.from(
        `${item.title}\nRelease ${item.release} for ${file.platform} (${file.arch})\n\nThis demo file stands in for the installer.\n`,
      );
      const storedName = crypto.randomBytes(16).toString('hex');
      const { size, sha256, sha512 } = await storage.putStream(releaseFileKey(storedName), content);
      ofItem.push({ ...file, storedName, size, sha256, sha512 });
    }
    files.push(ofItem);
  }
  return files;
}

function insertDemoContent(db: Db, authorId: number | null, images: GeneratedImage[][], files: DemoFile[][]): void {
  DEMO_HOME_SECTIONS.forEach((demo, sectionIndex) => {
    const section = insertHomeSection(db, { title: demo.title, body: demo.body, order: demo.order });
    (images[sectionIndex] ?? []).forEach((image, imageIndex) => {
      const title = demo.imageThemes[imageIndex] ?? demo.title;
      insertHomeImage(db, {
        title,
        alt: title,
        urls: JSON.stringify(image.urls),
        sizes: JSON.stringify(image.sizes),
        home_section_id: section.id,
        order: imageIndex,
      });
    });
  });

  for (const namespace of NAMESPACES) {
    for (const demoSection of DEMO_SECTIONS[namespace]) {
      const section = insertSection(db, namespace, { title: demoSection.title, order: demoSection.order });
      for (const post of demoSection.posts) insertPost(db, namespace, { ...post, section_id: section.id, user_id: authorId });
    }
  }

  const now = Date.now();
  DEMO_DOWNLOADS.forEach((item, index) => {
    const releasedAt = new Date(now - item.daysAgo * 24 * 60 * 60 * 1000).toISOString();
    const release = insertDownloadItem(db, {
      title: item.title,
      body: item.body,
      release: item.release,
      is_current: item.is_current,
      downloadable: item.downloadable,
      version: item.version,
      channel: item.channel,
      entitlement: item.entitlement,
      released_at: releasedAt,
    });
    for (const file of files[index] ?? []) {
      insertReleaseFile(db, {
        download_item_id: release.id,
        name: file.name,
        stored_name: file.storedName,
        size: file.size,
        sha256: file.sha256,
        sha512: file.sha512,
        platform: file.platform,
        arch: file.arch,
      });
    }
  });
}
