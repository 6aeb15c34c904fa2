// Shapes home rows for clients: the image `urls`/`sizes` JSON columns become objects.
import type { HomeImage } from '../../db/schema.ts';
import { parseJsonObject } from '../../http/json.ts';
import { type HomeSectionWithImages } from '../../db/queries/content-snapshot.ts';

export function presentHomeImage(image: HomeImage) {
  return { ...image, urls: parseJsonObject(image.urls), sizes: parseJsonObject(image.sizes) };
}

export function presentHomeSection(section: HomeSectionWithImages) {
  return { ...section, images: section.images.map(presentHomeImage) };
}
