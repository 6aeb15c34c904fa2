// Video items of the image manager (docs/product/messages.md#validation: the video id taken from a link is 11 characters). Only
// the id is kept from whatever link was pasted; the player URL is rebuilt on the privacy-enhanced host
// the site's CSP allows as a frame source, so a pasted link can never smuggle in another site.

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com', 'youtube-nocookie.com', 'www.youtube-nocookie.com']);

/** The 11-character id of a YouTube link (watch?v=, youtu.be/, /embed/, /shorts/, /live/, /v/), or null. */
export function youTubeVideoId(link: string): string | null {
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = url.hostname.toLowerCase();
  let candidate: string | undefined;
  if (host === 'youtu.be' || host === 'www.youtu.be') {
    candidate = url.pathname.split('/')[1];
  } else if (YOUTUBE_HOSTS.has(host)) {
    const [, first, second] = url.pathname.split('/');
    if (first === 'watch') candidate = url.searchParams.get('v') ?? undefined;
    else if (first === 'embed' || first === 'shorts' || first === 'live' || first === 'v') candidate = second;
  }
  return candidate && VIDEO_ID.test(candidate) ? candidate : null;
}

export function youTubeEmbedUrl(id: string): string {
  return `https://www.youtube-nocookie.com/embed/${id}`;
}
