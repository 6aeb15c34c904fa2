// Runs Debian's nginx in front of the Node server for the browser tests (docs/decisions/0032-nginx-front.md):
// deploy/nginx.conf rendered with this run's paths and ports, inside an http block like Debian's own
// nginx.conf, everything nginx writes (pid, logs, temp files) in a temp prefix, in the foreground
// (`daemon off`), so it runs unprivileged and needs no system service. As root (CI) the workers run as
// www-data, as in production, and read the build only through the modes the README sets (prepareDataDir
// below) and the server gives each build.
//
// Playwright starts it after the Node server (playwright.nginx.config.ts) and stops it with the run.
// When a build goes live it rewrites the CSP map and reloads nginx, as deploy/site-nginx-csp.path does.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeNginxCspMap } from '../../scripts/nginx-csp.ts';
import { NGINX_PORT, NGINX_WORKER_USER, NODE_PORT } from './env.ts';

const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const BROTLI_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';
const projectRoot = path.resolve(import.meta.dirname, '../..');
const isRoot = process.getuid?.() === 0;

/**
 * What README "Production" step 4 does to DATA_DIR, for the temp one (mkdtemp makes it 0700): other users,
 * nginx's among them, may pass through DATA_DIR without listing it and read builds/; the server makes each
 * build public itself (server/publish/build-dirs.ts), whatever its umask.
 */
export function prepareDataDir(dataDir: string): void {
  fs.chmodSync(dataDir, 0o711);
  const builds = path.join(dataDir, 'builds');
  fs.mkdirSync(builds, { recursive: true });
  fs.chmodSync(builds, 0o755);
}

function render(template: string, values: Record<string, string>): string {
  const text = template.replace(/@([A-Z_]+)@/g, (match, name: string) => values[name] ?? match);
  const left = /@[A-Z_]+@/.exec(text.replace(/^\s*#.*$/gm, ''));
  if (left) throw new Error(`deploy/nginx.conf: no value for ${left[0]}`);
  return text;
}

function mainConfig(prefix: string, siteFile: string): string {
  return `load_module ${BROTLI_MODULE};
${isRoot ? `user ${NGINX_WORKER_USER};` : ''}
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 256; }
http {
    # As Debian's /etc/nginx/nginx.conf, gzip included (the site turns it off for itself).
    sendfile on;
    tcp_nopush on;
    types_hash_max_size 2048;
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    gzip on;
    access_log ${prefix}/access.log;
    client_body_temp_path ${prefix}/client_body;
    proxy_temp_path ${prefix}/proxy;
    fastcgi_temp_path ${prefix}/fastcgi;
    uwsgi_temp_path ${prefix}/uwsgi;
    scgi_temp_path ${prefix}/scgi;
    include ${siteFile};
}
`;
}

async function waitForBuild(current: string): Promise<void> {
  for (let tries = 0; tries < 600; tries += 1) {
    if (fs.existsSync(path.join(current, 'index.html'))) return;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`no live build appeared at ${current}`);
}

async function main(): Promise<void> {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set');
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'site-nginx-'));
  // Workers (www-data under root) write request bodies under the prefix; nothing secret lives here.
  fs.chmodSync(prefix, 0o755);
  const builds = path.join(dataDir, 'builds');
  const current = path.join(builds, 'current');
  await waitForBuild(current);

  const cspMap = path.join(prefix, 'site-csp.map');
  writeNginxCspMap(fs.realpathSync(current), cspMap);
  const siteFile = path.join(prefix, 'site.conf');
  const template = fs.readFileSync(path.join(projectRoot, 'deploy/nginx.conf'), 'utf8');
  fs.writeFileSync(
    siteFile,
    render(template, { LISTEN: `127.0.0.1:${NGINX_PORT}`, SERVER_NAME: 'localhost', DATA_DIR: dataDir, NODE: `127.0.0.1:${NODE_PORT}`, CSP_MAP: cspMap }),
  );
  const configFile = path.join(prefix, 'nginx.conf');
  fs.writeFileSync(configFile, mainConfig(prefix, siteFile));
  const base = ['-p', prefix, '-c', configFile, '-e', path.join(prefix, 'error.log')];
  execFileSync(NGINX, [...base, '-t', '-q'], { stdio: 'inherit' });

  const nginx = spawn(NGINX, [...base, '-g', 'daemon off;'], { stdio: 'inherit' });
  nginx.on('exit', (code, signal) => {
    console.error(`nginx exited (${signal ?? code}); its log: ${path.join(prefix, 'error.log')}`);
    process.exit(code ?? 1);
  });
  const stop = () => {
    nginx.kill('SIGQUIT');
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  // A publish switches builds/current: rewrite the map from the new build and reload, only when it changed.
  let timer: NodeJS.Timeout | undefined;
  fs.watch(builds, () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      try {
        if (writeNginxCspMap(fs.realpathSync(current), cspMap)) execFileSync(NGINX, [...base, '-s', 'reload'], { stdio: 'inherit' });
      } catch (error) {
        console.error('could not refresh the CSP map', error);
      }
    }, 100);
  });
}

if (import.meta.main) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
