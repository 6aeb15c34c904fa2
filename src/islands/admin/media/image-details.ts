// The title and alt text an image is uploaded with (issue 14, part 2): both asked for at upload,
// pre-filled from the file's name so the admin edits words rather than types them, and a warning while
// the alt text is empty (screen readers would have nothing to say about the image). The title is the
// public caption (src/components/HomeFigures.astro), so a file name never becomes one unseen.

export interface UploadDetails {
  title: string;
  alt: string;
}

/** Server limit of both fields (server/features/images/routes.ts, docs/content-api.md). */
export const IMAGE_TEXT_MAX = 255;

export const ALT_MISSING_WARNING = 'No alt text: screen reader users will not know what the image shows. Leave it empty only for a purely decorative image.';

/** "gauge_r-r.final.PNG" → "Gauge r r.final": the name without its extension, separators as spaces. */
export function textFromFileName(name: string): string {
  const base = (name.split(/[/\\]/).pop() ?? '').replace(/\.[^.]*$/, '');
  const words = base.replace(/[-_]+/g, ' ').replace(/\s+/g, ' ').trim();
  return (words.charAt(0).toUpperCase() + words.slice(1)).slice(0, IMAGE_TEXT_MAX);
}

/** What the fields start with once a file is chosen. */
export function detailsFromFileName(name: string): UploadDetails {
  const text = textFromFileName(name);
  return { title: text, alt: text };
}

/** The warning to show under the alt field, or null. */
export function altWarning(details: UploadDetails): string | null {
  return details.alt.trim() === '' ? ALT_MISSING_WARNING : null;
}
