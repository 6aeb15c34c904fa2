// @ts-check
// The warm-up site (docs/decisions/0036-one-build-per-process.md): a build process builds this tiny site
// once while nothing is being published, so its one real build runs on code V8 has already compiled and
// optimised. It uses the same kinds of things as the real site (an Astro page and layout, a React island
// hydrated on load, a scoped style, incremental builds) and nothing of its content. The publisher copies
// it into a writable working directory first (the project may be read-only in production).
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';

export default defineConfig({
  output: 'static',
  build: { format: 'directory', inlineStylesheets: 'never' },
  cacheDir: './.cache',
  integrations: [react()],
  devToolbar: { enabled: false },
  experimental: { incrementalBuild: true },
  vite: { build: { assetsInlineLimit: 0, reportCompressedSize: false } },
});
