// The production files (issue 15, item 5; docs/decisions/0032-nginx-front.md) checked without running them:
// the systemd unit has the sandbox and the readiness wait the README promises, nginx's static answers carry
// the server's own security headers, and the CSP map names each page's inline-script hashes. The browser
// suite (npm run test:e2e:nginx) runs nginx for real.
import { SERVING_NODE_FLAGS, servingExecArgv } from '../../../server/process/node-flags.ts';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nginxCspMap, writeNginxCspMap } from '../../../scripts/nginx-csp.ts';
import { loadConfig } from '../../../server/env.ts';
import { makeBuildPublic, PREVIOUS_LINK } from '../../../server/publish/build-dirs.ts';
import { BASE_SECURITY_HEADERS, contentSecurityPolicy } from '../../../server/http/security-headers.ts';
import { inlineScriptHashes } from '../../../server/static/inline-scripts.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** `Key=value` lines of a unit file's [Service] section; a key given twice keeps every value. */
function serviceKeys(unit: string): Map<string, string[]> {
  const section = /^\[Service\]$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(unit)?.[1] ?? '';
  const keys = new Map<string, string[]>();
  for (const line of section.split('\n')) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (match) keys.set(match[1]!, [...(keys.get(match[1]!) ?? []), match[2]!]);
  }
  return keys;
}

describe('deploy/site.service', () => {
  const keys = serviceKeys(read('deploy/site.service'));
  const one = (key: string) => keys.get(key)?.at(-1);

  it('runs as its own user from an environment file and restarts on failure', () => {
    expect(one('User')).toBe('site');
    expect(one('EnvironmentFile')).toBe('/etc/site/site.env');
    // The serving processes' V8 flags are on the command line (server/process/node-flags.ts).
    expect(one('ExecStart')).toBe(`/usr/bin/node ${SERVING_NODE_FLAGS.join(' ')} server/index.ts`);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).toBe(`node ${SERVING_NODE_FLAGS.join(' ')} server/index.ts`);
    // A primary started without them still gives them to the other serving processes, and a debugger flag never.
    expect(servingExecArgv(['--inspect=9229', '--max-old-space-size=512'])).toEqual(['--max-old-space-size=512', ...SERVING_NODE_FLAGS]);
    expect(servingExecArgv(['--max-semi-space-size=32'])).toEqual(['--max-semi-space-size=32']);
    expect(one('Restart')).toBe('on-failure');
  });

  it('is started only once /readyz answers', () => {
    expect(one('ExecStartPost')).toMatch(/curl .*-w %%\{http_code\}.*\/readyz\)" = 200 \]/);
  });

  it('stops with SIGTERM to the server alone, and waits longer than its own stop deadline (decision 0033)', () => {
    expect(one('KillSignal')).toBe('SIGTERM');
    expect(one('KillMode')).toBe('mixed');
    // The server exits at most 5 s after SHUTDOWN_TIMEOUT_S: systemd's SIGKILL must come only after that.
    const deadlineS = loadConfig({ NODE_ENV: 'test', DATA_DIR: os.tmpdir() }).shutdownTimeoutMs / 1000;
    expect(Number(one('TimeoutStopSec'))).toBeGreaterThan(deadlineS + 5);
  });

  it("is sandboxed: read-only system but DATA_DIR and the build's scratch folders, no privileges, private files", () => {
    expect(one('ProtectSystem')).toBe('strict');
    expect(one('ReadWritePaths')?.split(' ')).toEqual([
      '/var/lib/site',
      '-/opt/site/.astro',
      '-/opt/site/node_modules/.cache',
      '-/opt/site/node_modules/.vite',
      '-/opt/site/node_modules/.vite-temp',
    ]);
    for (const key of ['NoNewPrivileges', 'PrivateTmp', 'ProtectHome', 'ProtectKernelTunables', 'ProtectKernelModules', 'ProtectKernelLogs', 'PrivateDevices'])
      expect(one(key), key).toBe('yes');
    expect(one('CapabilityBoundingSet')).toBe('');
    expect(one('RestrictAddressFamilies')).toBe('AF_INET AF_INET6 AF_UNIX');
    expect(one('SystemCallFilter')).toBe('@system-service');
    expect(one('UMask')).toBe('0077');
  });

  // systemd's own parser, where the machine has it (Debian's `systemd` package): unknown keys, bad values
  // and missing executables are errors.
  it.runIf(fs.existsSync('/usr/bin/systemd-analyze'))('passes systemd-analyze verify', () => {
    const units = ['site.service', 'site-nginx-csp.path', 'site-nginx-csp.service'];
    expect(() =>
      execFileSync('systemd-analyze', ['verify', ...units.map((unit) => `./${unit}`)], { cwd: path.join(root, 'deploy'), stdio: 'pipe' }),
    ).not.toThrow();
  });
});

describe('deploy/nginx.conf', () => {
  const config = read('deploy/nginx.conf');

  it('adds exactly the server’s security headers to every static answer', () => {
    const blocks = config.split(/\n {4}location /).filter((block) => block.includes('add_header X-Served-By'));
    // Pages, directory pages, /_astro/, /pagefind/, and the replaced build's assets and files (@previous_*).
    expect(blocks.length).toBe(6);
    for (const block of blocks) {
      const added = Object.fromEntries([...block.matchAll(/add_header ([\w-]+) "([^"]*)" always;/g)].map((match) => [match[1], match[2]]));
      for (const [name, value] of Object.entries(BASE_SECURITY_HEADERS)) expect(added[name], name).toBe(value);
      expect(block).toContain('add_header Content-Security-Policy $site_csp always;');
      // Every answer names its request, as the server's do (X-Request-Id).
      expect(block).toContain('add_header X-Request-Id $request_id always;');
    }
  });

  it('answers hashed files the live build lacks from builds/previous, then hands the path to Node', () => {
    expect(config).toMatch(/location \/_astro\/ \{\s+try_files \$uri @previous_asset;/);
    expect(config).toMatch(/location \/pagefind\/ \{\s+try_files \$uri @previous_file;/);
    for (const [name, cache] of [
      ['@previous_asset', 'public, max-age=31536000, immutable'],
      ['@previous_file', 'no-cache'],
    ]) {
      const block = config.split(/\n {4}location /).find((candidate) => candidate.startsWith(`${name} {`)) ?? '';
      expect(block, name).toContain(`root @DATA_DIR@/builds/${PREVIOUS_LINK};`);
      expect(block, name).toContain('try_files $uri @node;');
      expect(block, name).toContain(`add_header Cache-Control "${cache}" always;`);
    }
  });

  it('caps open connections per client as the server does without a proxy (its own cap is off behind one)', () => {
    const serverDefault = loadConfig({ NODE_ENV: 'test', DATA_DIR: os.tmpdir() }).maxConnectionsPerClient;
    expect(config).toMatch(/^limit_conn_zone \$binary_remote_addr zone=site_conn:\d+m;$/m);
    expect(config).toContain(`    limit_conn site_conn ${serverDefault};`);
  });

  it('proxies the API, sessions, media and health checks to Node with the forwarded headers', () => {
    for (const location of [
      'location ^~ /api/ {',
      'location ^~ /sanctum/ {',
      'location ^~ /media/ {',
      'location = /healthz {',
      'location = /readyz {',
      'location @node {',
    ])
      expect(config).toContain(location);
    for (const header of ['X-Forwarded-For $remote_addr', 'X-Forwarded-Proto $scheme', 'X-Forwarded-Host $http_host'])
      expect(config).toContain(`proxy_set_header ${header};`);
    expect(config).toMatch(/location \^~ \/api\/auth\/ \{\s+limit_req zone=site_auth/);
    expect(config).toMatch(/location \^~ \/api\/licensing\/ \{\s+limit_req zone=site_licensing/);
  });
});

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('makeBuildPublic', () => {
  it('makes a build readable by nginx’s user whatever the modes its files were written with', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'build-public-'));
    fs.mkdirSync(path.join(dir, '_astro'), { mode: 0o700 });
    fs.writeFileSync(path.join(dir, 'index.html'), 'x', { mode: 0o600 });
    fs.writeFileSync(path.join(dir, '_astro/font.woff2'), 'x', { mode: 0o600 });
    fs.chmodSync(dir, 0o700);
    makeBuildPublic(dir);
    const mode = (file: string) => fs.statSync(path.join(dir!, file)).mode & 0o777;
    expect(mode('.')).toBe(0o755);
    expect(mode('_astro')).toBe(0o755);
    expect(mode('index.html')).toBe(0o644);
    expect(mode('_astro/font.woff2')).toBe(0o644);
  });
});

describe('scripts/nginx-csp.ts', () => {
  it('names each page with inline scripts under every URL the server answers it at, with the path rule for the rest', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nginx-csp-'));
    const island = '<html><script>customElements.define("x-a", class extends HTMLElement {})</script></html>';
    fs.mkdirSync(path.join(dir, 'contact'));
    fs.mkdirSync(path.join(dir, 'news/a-post'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'contact/index.html'), island);
    fs.writeFileSync(path.join(dir, 'news/index.html'), island);
    fs.writeFileSync(path.join(dir, 'news/a-post/index.html'), '<html><p>No scripts.</p></html>');
    const map = nginxCspMap(dir);

    const hashes = inlineScriptHashes(island);
    const contact = `"${contentSecurityPolicy(hashes)}";`;
    for (const url of ['/contact/', '/contact', '/contact/index.html']) expect(map).toContain(`"${url}" ${contact}`);
    // Search pages also compile WebAssembly, as the server allows them.
    expect(map).toContain(`"/news/" "${contentSecurityPolicy(hashes, { wasm: true })}";`);
    // A page without scripts is left to the path rule, so later posts need no new map.
    expect(map).not.toContain('"/news/a-post/"');
    expect(map).toContain(`"~^/(?:search|news|documentation|tutorials|pagefind)(?:/|$)" "${contentSecurityPolicy([], { wasm: true })}";`);
    expect(map).toContain(`default "${contentSecurityPolicy()}";`);
  });

  it('rewrites the map only when a build changes it, so nginx reloads only then', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nginx-csp-'));
    const build = path.join(dir, 'build');
    fs.mkdirSync(build);
    fs.writeFileSync(path.join(build, 'index.html'), '<p>Home</p>');
    const map = path.join(dir, 'site-csp.map');
    expect(writeNginxCspMap(build, map)).toBe(true);
    // A new post: no inline scripts, the path rule covers it.
    fs.mkdirSync(path.join(build, 'news/new-post'), { recursive: true });
    fs.writeFileSync(path.join(build, 'news/new-post/index.html'), '<p>Post</p>');
    expect(writeNginxCspMap(build, map)).toBe(false);
    // A page with an island's inline script: a new entry.
    fs.writeFileSync(path.join(build, 'index.html'), '<script>void 0</script>');
    expect(writeNginxCspMap(build, map)).toBe(true);
    expect(fs.readFileSync(map, 'utf8')).toContain('"/" ');
  });
});
