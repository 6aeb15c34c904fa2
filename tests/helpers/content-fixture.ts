// A small, known set of content for publish tests: a home section with an image, two sections of news
// with published and unpublished posts, an attached file, and two download releases.
import type { Db } from '../../server/db/client.ts';
import { insertDownloadItem, insertReleaseFile } from '../../server/features/downloads/queries.ts';
import { insertHomeImage, insertHomeSection } from '../../server/features/home/queries.ts';
import { insertPost } from '../../server/features/content/queries.ts';
import { insertSection } from '../../server/features/content/queries.ts';
import { insertUser } from '../../server/db/queries/users.ts';
import { uploadedFiles } from '../../server/db/schema.ts';

export const FIXTURE = {
  homeTitle: 'Coordinate measuring for everyone',
  secondHomeTitle: 'Scanning services',
  publishedPost: 'Release notes for CMM Suite 9',
  unpublishedPost: 'Secret draft about the merger',
  unpublishedBodyMarker: 'CONFIDENTIAL-DRAFT-MARKER',
  currentRelease: 'CMM Suite 9',
  previousRelease: 'CMM Suite 8',
} as const;

export function insertContentFixture(db: Db) {
  const author = insertUser(db, { name: 'Ada Admin', email: 'ada@example.test', password_hash: 'x', role: 'admin' });
  // Inserted out of order on purpose: the snapshot must sort by `order`.
  insertHomeSection(db, { title: FIXTURE.secondHomeTitle, body: 'Laser scanning.', order: 2 });
  const home = insertHomeSection(db, { title: FIXTURE.homeTitle, body: 'We measure **precisely**.', order: 1 });
  insertHomeImage(db, {
    title: 'Probe',
    alt: 'A probe touching a part',
    urls: JSON.stringify({ thumb: '/media/home/a-thumb.webp', lg: '/media/home/a-lg.webp' }),
    sizes: JSON.stringify({ thumb: { width: 480, height: 320 }, lg: { width: 1200, height: 800 } }),
    home_section_id: home.id,
    order: 0,
  });
  const later = insertSection(db, 'news', { title: 'Events', order: 5 });
  const releases = insertSection(db, 'news', { title: 'Releases', order: 1 });
  const file = db
    .insert(uploadedFiles)
    .values({ namespace: 'news', filename: 'notes.pdf', stored_name: 'f0f0f0.bin', description: 'Release notes', size: 1234 })
    .returning()
    .get();
  const second = insertPost(db, 'news', {
    section_id: releases.id,
    title: 'Second by display order',
    body: 'b',
    published: true,
    display_order: 2,
    user_id: author.id,
  });
  const first = insertPost(db, 'news', {
    section_id: releases.id,
    title: FIXTURE.publishedPost,
    body: 'Now with $E=mc^2$.',
    published: true,
    display_order: 1,
    uploaded_file_id: file.id,
    user_id: author.id,
  });
  const draft = insertPost(db, 'news', {
    section_id: releases.id,
    title: FIXTURE.unpublishedPost,
    body: `Not for readers: ${FIXTURE.unpublishedBodyMarker}`,
    published: false,
    display_order: 0,
    user_id: author.id,
  });
  insertDownloadItem(db, { title: FIXTURE.previousRelease, body: 'Old.', release: '8.0', is_current: 0, downloadable: 0 });
  const current = insertDownloadItem(db, { title: FIXTURE.currentRelease, body: 'New.', release: '9.0', is_current: 1, downloadable: 1 });
  // A row only (no bytes on disk): the pages show its name, size and hash.
  insertReleaseFile(db, {
    download_item_id: current.id,
    name: 'cmm-9.zip',
    stored_name: '0'.repeat(32),
    size: 42,
    sha256: 'abc',
    platform: 'any',
    arch: 'universal',
  });
  return { author, home, sections: { releases, later }, posts: { first, second, draft }, file };
}
