// Pure helpers of the content API: image type sniffing, YouTube ids, relative times, media URL guards.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { mediaUrlToStoredKey, sniffImageType } from '../../../../server/features/images/storage.ts';
import { youTubeVideoId } from '../../../../server/features/images/video-links.ts';
import { timeAgo } from '../../../../server/features/content/present.ts';

describe('sniffImageType', () => {
  it('recognises the allowed formats by their bytes', async () => {
    const base = sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } });
    expect(sniffImageType(await base.clone().jpeg().toBuffer())).toBe('jpeg');
    expect(sniffImageType(await base.clone().png().toBuffer())).toBe('png');
    expect(sniffImageType(await base.clone().webp().toBuffer())).toBe('webp');
    expect(sniffImageType(await base.clone().gif().toBuffer())).toBe('gif');
    expect(sniffImageType(await base.clone().avif().toBuffer())).toBe('avif');
  });

  it('refuses SVG, HTML, PDF, HEIC and empty input', () => {
    for (const text of ['<svg xmlns="http://www.w3.org/2000/svg"/>', '<!DOCTYPE html>', '%PDF-1.7', '']) expect(sniffImageType(Buffer.from(text))).toBeNull();
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic\0\0\0\0mif1heic')]);
    expect(sniffImageType(heic)).toBeNull();
  });
});

describe('youTubeVideoId', () => {
  it('takes the 11-character id from the usual link forms', () => {
    for (const link of [
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      'http://youtube.com/watch?list=x&v=dQw4w9WgXcQ',
      'https://youtu.be/dQw4w9WgXcQ',
      'https://www.youtube.com/embed/dQw4w9WgXcQ?start=3',
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
      'https://www.youtube.com/shorts/dQw4w9WgXcQ',
      '  https://www.youtube.com/live/dQw4w9WgXcQ  ',
    ]) {
      expect(youTubeVideoId(link), link).toBe('dQw4w9WgXcQ');
    }
  });

  it('refuses other hosts, other schemes and ids of the wrong shape', () => {
    for (const link of [
      'https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ',
      'ftp://youtu.be/dQw4w9WgXcQ',
      'https://youtu.be/dQw4w9WgXc',
      'https://youtu.be/dQw4w9WgXcQQ',
      'https://www.youtube.com/watch?v=dQw4w9WgX<Q',
      'dQw4w9WgXcQ',
    ]) {
      expect(youTubeVideoId(link), link).toBeNull();
    }
  });
});

describe('timeAgo', () => {
  const now = Date.UTC(2026, 5, 15, 12);
  it('says how long ago, in the largest whole unit', () => {
    expect(timeAgo(new Date(now - 3_000).toISOString(), now)).toBe('just now');
    expect(timeAgo(new Date(now - 60_000).toISOString(), now)).toBe('1 minute ago');
    expect(timeAgo(new Date(now - 3 * 86_400_000).toISOString(), now)).toBe('3 days ago');
    expect(timeAgo(new Date(now - 400 * 86_400_000).toISOString(), now)).toBe('1 year ago');
    expect(timeAgo(new Date(now + 7_200_000).toISOString(), now)).toBe('2 hours from now');
    expect(timeAgo('not a date', now)).toBe('');
  });
});

describe('mediaUrlToStoredKey', () => {
  it('maps only our own variant names inside the route directories', () => {
    expect(mediaUrlToStoredKey('/media/news/0123456789abcdef-thumb.webp')).toBe('media/news/0123456789abcdef-thumb.webp');
    for (const url of [
      '/media/news/../../etc/passwd',
      '/media/other/0123456789abcdef-thumb.webp',
      'https://www.youtube-nocookie.com/embed/x',
      '/media/news/a/b-thumb.webp',
    ]) {
      expect(mediaUrlToStoredKey(url), url).toBeNull();
    }
  });
});
