// A browser-like API client over fetch for the bench: a cookie jar, the XSRF double-submit header, and a
// login that solves the real bot challenge (the bench runs the product with BOTCHECK_COST=1).
import { solveBotChallenge } from '../../tests/helpers/botcheck.ts';

export interface ApiClient {
  cookieHeader(): string;
  cookie(name: string): string | undefined;
  json(method: string, pathname: string, body?: unknown): Promise<Response>;
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
  return {
    cookieHeader,
    cookie: (name) => cookies.get(name),
    async json(method, pathname, body) {
      const headers: Record<string, string> = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest', Cookie: cookieHeader() };
      const xsrf = cookies.get('XSRF-TOKEN');
      if (xsrf !== undefined) headers['X-XSRF-TOKEN'] = decodeURIComponent(xsrf);
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const response = await fetch(`${base}${pathname}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
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
  return client;
}
