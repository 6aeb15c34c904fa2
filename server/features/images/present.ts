// An uploaded image as clients receive it: its JSON columns (URLs and sizes per variant) as objects.
import type { UploadedImage } from '../../db/schema.ts';
import { parseJsonObject } from '../../http/json.ts';

export function presentUploadedImage(image: UploadedImage) {
  return { ...image, image_url: parseJsonObject(image.image_url), sizes: parseJsonObject(image.sizes) };
}
