// A hand-made build directory shaped like Astro's output (directory format, hashed /_astro assets,
// inline island scripts), with a secret file next to it that must never be reachable.
import fs from 'node:fs';
import path from 'node:path';

export const INLINE_SCRIPT = '(()=>{window.island=1})();';
export const INLINE_MODULE = 'console.log(`hi`);';
export const SECRET = 'TOP-SECRET-DO-NOT-SERVE';

export function writeFixtureBuild(root: string): { buildDir: string; mediaDir: string } {
  const buildDir = path.join(root, 'builds', 'site');
  const mediaDir = path.join(root, 'uploads');
  const padding = '<p>Precision measurement and IT solutions for industry.</p>'.repeat(40);
  const write = (relative: string, content: string | Buffer) => {
    const file = path.join(buildDir, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  };
  write(
    'index.html',
    `<!DOCTYPE html><html><head><title>Home</title><script type="module" src="/_astro/app.Ab12Cd.js"></script>` +
      `<script type="application/ld+json">{"@type":"Organization"}</script></head>` +
      `<body><h1>Home page</h1>${padding}<script>${INLINE_SCRIPT}</script><script type="module">${INLINE_MODULE}</script></body></html>`,
  );
  write('news/index.html', `<!DOCTYPE html><html><body><h1>News page</h1>${padding}</body></html>`);
  write('news/events/index.html', `<!DOCTYPE html><html><body><h1>Events</h1></body></html>`);
  write('_astro/app.Ab12Cd.js', `export const app = ${JSON.stringify('x'.repeat(10))};\n`.repeat(200));
  write('_astro/logo.Zz99.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]));
  write('robots.txt', 'User-agent: *\nAllow: /\n');
  write('docs/readme.txt', 'a directory without an index');
  fs.writeFileSync(path.join(root, 'builds', 'secret.txt'), SECRET);
  fs.writeFileSync(path.join(root, 'secret.txt'), SECRET);

  fs.mkdirSync(path.join(mediaDir, 'home'), { recursive: true });
  fs.writeFileSync(path.join(mediaDir, 'home', 'pic.webp'), Buffer.from('RIFF0000WEBPVP8 fake image bytes'));
  fs.writeFileSync(path.join(mediaDir, 'home', 'drawing.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  fs.writeFileSync(path.join(mediaDir, 'home', 'tool.exe'), 'MZ');
  fs.writeFileSync(path.join(mediaDir, '.hidden'), SECRET);
  return { buildDir, mediaDir };
}

/** A build directory `root/name` holding exactly these files (path → text). */
export function writeBuild(root: string, name: string, files: Record<string, string>): string {
  const dir = path.join(root, name);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}
