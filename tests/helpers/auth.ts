// Auth helpers for API tests: make users directly in the database, and log in the way the browser client
// does (fetch the XSRF cookie, then POST /api/auth/login) so tests exercise the real CSRF and session code.
import type { App } from '../../server/app.ts';
import type { AppContext } from '../../server/context.ts';
import { insertUser } from '../../server/db/queries/users.ts';
import type { User } from '../../server/db/schema.ts';
import { hashPassword } from '../../server/auth/passwords.ts';
import { solveBotChallenge } from './botcheck.ts';

export const DEFAULT_TEST_PASSWORD = 'correct horse battery staple';

export interface CreateUserOptions {
  email: string;
  password?: string;
  name?: string;
  role?: 'user' | 'admin';
  /** E-mail verified (default true): most tests want a fully able user. */
  verified?: boolean;
  banned?: boolean;
}

/** Inserts a user straight into the database (no registration flow), hashing the password for real. */
export async function createUser(ctx: Pick<AppContext, 'db' | 'now'>, options: CreateUserOptions): Promise<User> {
  return insertUser(ctx.db, {
    name: options.name ?? options.email.split('@')[0] ?? 'Test User',
    email: options.email,
    password_hash: await hashPassword(options.password ?? DEFAULT_TEST_PASSWORD),
    role: options.role ?? 'user',
    email_verified_at: (options.verified ?? true) ? new Date(ctx.now()).toISOString() : null,
    is_banned: options.banned ? 1 : 0,
  });
}

export interface RequestOptions {
  /** Extra or overriding headers (e.g. Origin); a null value removes a header the client would send. */
  headers?: Record<string, string | null>;
}

export interface TestClient {
  /** Current cookies as a Cookie header value (updated from every Set-Cookie the client receives). */
  readonly cookieHeader: string;
  /** Current XSRF-TOKEN cookie value, echoed in X-XSRF-TOKEN. */
  readonly xsrf: string | undefined;
  /** Cookie jar: name → value. */
  readonly cookies: Map<string, string>;
  /**
   * Sends a request like the browser client: cookies, X-XSRF-TOKEN, X-Requested-With and Accept JSON.
   * A plain object body is sent as JSON; FormData, strings and other BodyInit values are sent as they are.
   */
  request(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<Response>;
  /** GET /sanctum/csrf-cookie, as the client does before login, logout and the current-user check. */
  fetchCsrfCookie(): Promise<void>;
}

export interface LoggedInClient extends TestClient {
  /** The `user` of the login answer (the public user object). */
  user: Record<string, unknown> & { id: number; email: string };
  licenses: unknown[];
}

/** A browser-like client with an empty cookie jar (an anonymous visitor). */
export function createClient(app: App): TestClient {
  const cookies = new Map<string, string>();

  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const separator = pair.indexOf('=');
      if (separator < 0) continue;
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key = '', attributeValue = ''] = attribute.split('=').map((part) => part.trim());
        if (key.toLowerCase() === 'max-age') return Number(attributeValue) <= 0;
        if (key.toLowerCase() === 'expires') return Date.parse(attributeValue) <= Date.now();
        return false;
      });
      if (expired || value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
  };

  const client: TestClient = {
    get cookieHeader() {
      return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    },
    get xsrf() {
      return cookies.get('XSRF-TOKEN');
    },
    cookies,
    async request(method, path, body, options = {}) {
      const headers: Record<string, string> = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
      if (cookies.size > 0) headers.Cookie = client.cookieHeader;
      // The real client reads the cookie and sends it URL-decoded as-is; our tokens need no encoding.
      const xsrf = client.xsrf;
      if (xsrf !== undefined) headers['X-XSRF-TOKEN'] = decodeURIComponent(xsrf);
      let requestBody: BodyInit | undefined;
      if (body !== undefined) {
        if (isPlainObject(body) || Array.isArray(body)) {
          headers['Content-Type'] = 'application/json';
          requestBody = JSON.stringify(body);
        } else {
          requestBody = body as BodyInit;
        }
      }
      for (const [name, value] of Object.entries(options.headers ?? {})) {
        const existing = Object.keys(headers).find((key) => key.toLowerCase() === name.toLowerCase());
        if (existing) delete headers[existing];
        if (value !== null) headers[name] = value;
      }
      const response = await app.request(path, { method, headers, body: requestBody });
      remember(response);
      return response;
    },
    async fetchCsrfCookie() {
      const response = await client.request('GET', '/sanctum/csrf-cookie');
      if (response.status !== 204) throw new Error(`GET /sanctum/csrf-cookie answered ${response.status}`);
    },
  };
  return client;
}

/**
 * Logs in through the real endpoints and returns the logged-in client. Throws (with the answer) when the
 * login does not succeed, so a test fails at the step that broke.
 */
export async function login(
  app: App,
  email: string,
  password: string = DEFAULT_TEST_PASSWORD,
  options: { rememberMe?: boolean; userAgent?: string } = {},
): Promise<LoggedInClient> {
  const client = createClient(app);
  await client.fetchCsrfCookie();
  const response = await client.request(
    'POST',
    '/api/auth/login',
    { email, password, remember_me: options.rememberMe ?? false, g_token: await solveBotChallenge(app) },
    // The browser the session list names (docs/product/accounts.md#sessions).
    options.userAgent ? { headers: { 'User-Agent': options.userAgent } } : {},
  );
  if (response.status !== 200) throw new Error(`login of ${email} answered ${response.status}: ${await response.text()}`);
  const answer = (await response.json()) as { user: LoggedInClient['user']; licenses: unknown[] };
  return Object.assign(client, { user: answer.user, licenses: answer.licenses });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}
