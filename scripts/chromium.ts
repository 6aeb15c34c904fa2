// Debian's Chromium as every browser tool of this repository starts it: the browser tests
// (playwright.config.ts), the suite through nginx (playwright.nginx.config.ts) and `npm run lighthouse`.
// Without the background-networking flags Chromium floods the closed network with refused connections
// (docs/engineering.md#known-traps); --no-sandbox because CI runs as root.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
