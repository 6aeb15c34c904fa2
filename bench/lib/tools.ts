// The bench's outside tools, all from Debian: wrk (load), nginx (the static-serving reference) and
// Chromium (page weight as a browser loads it).
// Missing ones are installed when we are root (as .ci/run does for Chromium); otherwise the bench says so.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const NGINX = '/usr/sbin/nginx';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Tools {
  wrk: boolean;
  nginx: boolean;
  chromium: boolean;
}

function onPath(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** Installs Debian's wrk, nginx-light and chromium when missing and possible; returns what is usable afterwards. */
export function ensureTools(log: (line: string) => void): Tools {
  const missing = [!onPath('wrk') && 'wrk', !fs.existsSync(NGINX) && 'nginx-light', !fs.existsSync(CHROMIUM) && 'chromium'].filter((name): name is string =>
    Boolean(name),
  );
  if (missing.length > 0 && process.getuid?.() === 0 && onPath('apt-get')) {
    log(`Installing ${missing.join(' and ')} from Debian's packages…`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
    spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { stdio: 'ignore', env });
  }
  return { wrk: onPath('wrk'), nginx: fs.existsSync(NGINX), chromium: fs.existsSync(CHROMIUM) };
}

export interface NginxReference {
  base: string;
  /** The master's process id (from its pid file), or null once it is gone. */
  pid(): number | null;
  stop(): void;
}

/**
 * nginx serving `root` on `port` as a static site would be served in production: sendfile, keep-alive,
 * no access log (the product logs no static hits either). `workDir` holds its config, pid and error log.
 * With `proxyTo` it fronts the product as deploy/nginx.conf does: a file of the build from disk (its .gz form
 * when asked), anything else passed to Node.
 */
export function startNginx(options: { root: string; port: number; workDir: string; proxyTo?: string }): NginxReference {
  fs.mkdirSync(options.workDir, { recursive: true });
  // nginx's workers run as www-data when started by root: every directory on the way must be searchable,
  // or nginx answers 403 and the comparison is worthless (the bench checks for non-2xx answers too).
  for (let dir = options.root; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const mode = fs.statSync(dir).mode;
    if ((mode & 0o005) !== 0o005) fs.chmodSync(dir, mode | 0o005);
  }
  const conf = path.join(options.workDir, 'nginx.conf');
  fs.writeFileSync(
    conf,
    `worker_processes auto;
pid ${options.workDir}/nginx.pid;
error_log ${options.workDir}/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off; sendfile on; tcp_nopush on; keepalive_requests 100000;
  include /etc/nginx/mime.types;
  server {
    listen 127.0.0.1:${options.port}; root ${options.root}; add_header Cache-Control no-cache;
    ${options.proxyTo ? `gzip_static on; location / { try_files $uri $uri/index.html @node; } location @node { proxy_pass ${options.proxyTo}; }` : ''}
  }
}
`,
  );
  execFileSync(NGINX, ['-c', conf], { stdio: 'pipe' });
  return {
    base: `http://127.0.0.1:${options.port}`,
    pid() {
      try {
        return Number(fs.readFileSync(path.join(options.workDir, 'nginx.pid'), 'utf8').trim()) || null;
      } catch {
        return null;
      }
    },
    stop() {
      try {
        execFileSync(NGINX, ['-c', conf, '-s', 'stop'], { stdio: 'ignore' });
      } catch {
        // Already gone.
      }
    },
  };
}
