// Shared by playwright.nginx.config.ts, the nginx launcher and the specs: where nginx and Node listen.
export const NGINX_PORT = Number(process.env.E2E_NGINX_PORT ?? 4480);
export const NODE_PORT = Number(process.env.E2E_NODE_PORT ?? 4420);
export const NGINX_ORIGIN = `http://localhost:${NGINX_PORT}`;
/** Node straight, for comparing what nginx answers with what the server itself answers. */
export const NODE_ORIGIN = `http://127.0.0.1:${NODE_PORT}`;
/** The user nginx's workers run as when the suite runs as root (CI): Debian's, as in production. */
export const NGINX_WORKER_USER = 'www-data';
