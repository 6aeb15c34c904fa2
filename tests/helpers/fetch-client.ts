// A browser-like API client over fetch for a real server process (the fault drills, `npm run bench`): a
// cookie jar, the headers the site's own scripts send with the XSRF double-submit header, and a login that
// solves the real bot challenge (run the server with BOTCHECK_COST low). No vitest here: the bench uses it.
import net from 'node:net';
import { solveBotChallenge } from './botcheck.ts';

export interface ApiClient {
  cookieHeader(): string;
  cookie(name: string): string | undefined;
  /** Cookie, the XSRF header and the headers the site's own scripts send; no Content-Type. */
  headers(): Record<string, string>;
  json(method: string, pathname: string, body?: unknown): Promise<Response>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export function createApiClient(base: string): ApiClient {
  const cookies = new Map<string, string>();
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      const at = pair.indexOf('=');
      if (at < 0) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === '' || /max-age=0\b/i.test(line)) cookies.delete(name);
      else cookies.set(name, value);
    }
  };
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const headers = (): Record<string, string> => {
    const result: Record<string, string> = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest', Cookie: cookieHeader() };
    const xsrf = cookies.get('XSRF-TOKEN');
    if (xsrf !== undefined) result['X-XSRF-TOKEN'] = decodeURIComponent(xsrf);
    return result;
  };
  return {
    cookieHeader,
    cookie: (name) => cookies.get(name),
    headers,
    async json(method, pathname, body) {
      const all = headers();
      if (body !== undefined) all['Content-Type'] = 'application/json';
      const response = await fetch(`${base}${pathname}`, { method, headers: all, body: body === undefined ? undefined : JSON.stringify(body) });
      remember(response);
      return response;
    },
  };
}

/** A spendable g_token: a challenge from the product, solved as the browser widget would (the tests' helper). */
export function solvedBotToken(base: string): Promise<string> {
  return solveBotChallenge({ request: (pathname, init) => fetch(`${base}${pathname}`, init) });
}

/** Logs a client in (XSRF cookie first, then the login with a solved bot token); throws unless 200. */
export async function login(base: string, email: string, password: string): Promise<ApiClient> {
  const client = createApiClient(base);
  const csrf = await client.json('GET', '/sanctum/csrf-cookie');
  if (csrf.status !== 204) throw new Error(`csrf-cookie answered ${csrf.status}`);
  const response = await client.json('POST', '/api/auth/login', { email, password, remember_me: false, g_token: await solvedBotToken(base) });
  if (response.status !== 200) throw new Error(`login of ${email} answered ${response.status}: ${await response.text()}`);
  // Login rotates the XSRF cookie; the jar took the new one from the answer.
  if (!client.cookie('XSRF-TOKEN')) throw new Error(`login of ${email} set no XSRF-TOKEN cookie`);
  return client;
}
