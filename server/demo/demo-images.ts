// Draws the demo slideshow images at first start (sharp renders an SVG), so the seeded home page has
// real pictures in the same thumb/lg variants an admin upload produces, without shipping binaries.
import crypto from 'node:crypto';
import { loadSharp } from '../lazy-libraries.ts';
import { HOME_IMAGE_VARIANTS } from '../features/home/index.ts';
import type { ObjectStore } from '../storage/object-store/index.ts';

const palettes = [
  ['#0b3d91', '#1fa2ff'],
  ['#134e5e', '#71b280'],
  ['#42275a', '#734b6d'],
  ['#1d2b64', '#f8cdda'],
  ['#0f2027', '#2c5364'],
] as const;

function demoSvg(caption: string, seed: number): string {
  const [from, to] = palettes[seed % palettes.length] ?? palettes[0];
  const { width, height } = HOME_IMAGE_VARIANTS.lg;
  // A measurement-grid look: gradient, grid lines, a fitted curve and the caption.
  const grid = Array.from({ length: 11 }, (_, i) => `<line x1="${i * 120}" y1="0" x2="${i * 120}" y2="${height}" stroke="#ffffff22"/>`).join('');
  const curve = Array.from({ length: 25 }, (_, i) => `${i * 50},${400 + Math.round(Math.sin((i + seed) / 3) * 150)}`).join(' ');
  const safeCaption = caption.replace(/[<>&"]/g, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#g)"/>${grid}
  <polyline points="${curve}" fill="none" stroke="#ffffffcc" stroke-width="6"/>
  <text x="60" y="${height - 80}" font-family="sans-serif" font-size="64" fill="#fff">${safeCaption}</text>
</svg>`;
}

export interface GeneratedImage {
  urls: Record<keyof typeof HOME_IMAGE_VARIANTS, string>;
  sizes: typeof HOME_IMAGE_VARIANTS;
  /** Object keys of the variants, for cleanup if the seed's transaction fails. */
  keys: string[];
}

export async function generateDemoHomeImage(storage: ObjectStore, caption: string, seed: number): Promise<GeneratedImage> {
  const base = crypto.randomBytes(12).toString('hex');
  const svg = Buffer.from(demoSvg(caption, seed));
  const urls = {} as GeneratedImage['urls'];
  const keys: string[] = [];
  for (const [variant, size] of Object.entries(HOME_IMAGE_VARIANTS) as [keyof typeof HOME_IMAGE_VARIANTS, { width: number; height: number }][]) {
    const name = `${base}-${variant}.webp`;
    const key = `media/home/${name}`;
    await storage.putStream(key, await (await loadSharp())(svg).resize(size.width, size.height).webp({ quality: 80 }).toBuffer(), {
      contentType: 'image/webp',
    });
    keys.push(key);
    urls[variant] = `/media/home/${name}`;
  }
  return { urls, sizes: HOME_IMAGE_VARIANTS, keys };
}
