// Named queries the publish pipeline reads the public site from. They return published content only:
// whatever is not selected here can never reach static HTML (docs/engineering.md#unpublished-content-stays-private).
// The home sections and the section lists are the same reads the home and content features answer with.
import { and, asc, desc, eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import {
  downloadItems,
  homeImages,
  homeSections,
  posts,
  releaseFiles,
  sections,
  uploadedFiles,
  users,
  type DownloadItem,
  type HomeImage,
  type HomeSection,
  type Namespace,
  type ReleaseFile,
  type Section,
} from '../schema.ts';
import type { PostEntry } from '../../../common/snapshot-schema.ts';

/** A post as the snapshot holds it, with the section it belongs in. */
export type PublishedPostRow = PostEntry & { section_id: number };

/** Published posts of one namespace with their author and attached file, by section, display_order, id. */
export function listPublishedPostsForSnapshot(db: Db, namespace: Namespace): PublishedPostRow[] {
  return db
    .select({
      id: posts.id,
      section_id: posts.section_id,
      title: posts.title,
      title_slug: posts.title_slug,
      body: posts.body,
      display_order: posts.display_order,
      created_at: posts.created_at,
      updated_at: posts.updated_at,
      author: { name: users.name, role: users.role },
      file: { id: uploadedFiles.id, filename: uploadedFiles.filename, description: uploadedFiles.description, size: uploadedFiles.size },
    })
    .from(posts)
    .leftJoin(users, eq(posts.user_id, users.id))
    .leftJoin(uploadedFiles, eq(posts.uploaded_file_id, uploadedFiles.id))
    .where(and(eq(posts.namespace, namespace), eq(posts.published, 1)))
    .orderBy(asc(posts.section_id), asc(posts.display_order), asc(posts.id))
    .all();
}

/** Download items with their files (oldest first), the current release first, then newest first (docs/product/downloads.md#downloads-page cards, then the table). */
export function listDownloadsForSnapshot(db: Db): Array<DownloadItem & { files: ReleaseFile[] }> {
  const items = db.select().from(downloadItems).orderBy(desc(downloadItems.is_current), desc(downloadItems.created_at), desc(downloadItems.id)).all();
  const files = db.select().from(releaseFiles).orderBy(asc(releaseFiles.id)).all();
  return items.map((item) => ({ ...item, files: files.filter((file) => file.download_item_id === item.id) }));
}

export type HomeSectionWithImages = HomeSection & { images: HomeImage[] };

export function listHomeSectionsWithImages(db: Db): HomeSectionWithImages[] {
  const sectionRows = db.select().from(homeSections).orderBy(asc(homeSections.order), asc(homeSections.id)).all();
  const imageRows = db.select().from(homeImages).orderBy(asc(homeImages.order), asc(homeImages.id)).all();
  return sectionRows.map((section) => ({ ...section, images: imageRows.filter((image) => image.home_section_id === section.id) }));
}

/** Sections ascending by order (docs/product/data-model.md), ties by id so the order is stable. */
export function listSections(db: Db, namespace: Namespace): Section[] {
  return db.select().from(sections).where(eq(sections.namespace, namespace)).orderBy(asc(sections.order), asc(sections.id)).all();
}
