// Structured logs (docs/decisions/0031-observability.md): JSON lines with level, time and message; a
// request id on every request (made, or the trusted proxy's), echoed in X-Request-Id and on every line of
// the request; one access line per API request; errors with their stack; readable lines in development.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../server/log.ts';
import { createHttpServer } from '../../../server/server.ts';
import { login, createUser } from '../../helpers/auth.ts';
import { listen, rawRequest } from '../../helpers/raw-http.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';

interface Line {
  level: string;
  time: string;
  msg: string;
  req_id?: string;
  [field: string]: unknown;
}

const parse = (lines: readonly string[]): Line[] => lines.map((line) => JSON.parse(line) as Line);

let ctx: TestContext | undefined;
let server: Awaited<ReturnType<typeof listen>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  ctx?.cleanup();
  ctx = undefined;
});

async function start(env: Record<string, string> = {}) {
  ctx = createTestContext({ env });
  server = await listen(createHttpServer({ app: ctx.app, getSite: () => null, mediaDir: ctx.config.uploadsDir, trustProxy: ctx.config.trustProxy }));
  return { ctx, port: server.port };
}

describe('the line format', () => {
  it('is one JSON object a line with level, ISO time, pid and message; an error carries its stack', () => {
    const lines: string[] = [];
    const log = createLogger('silent', (line) => lines.push(line));
    log.info('plain message');
    log.warn('with fields', { build: 'b1', count: 3 });
    log.error('it broke', new Error('boom', { cause: new Error('root cause') }));
    const [plain, fields, failure] = parse(lines);
    expect(plain).toMatchObject({ level: 'info', msg: 'plain message', pid: process.pid });
    expect(new Date(plain?.time ?? '').toISOString()).toBe(plain?.time);
    expect(fields).toMatchObject({ level: 'warn', msg: 'with fields', build: 'b1', count: 3 });
    expect(failure).toMatchObject({ level: 'error', msg: 'it broke', err: { type: 'Error', message: 'boom', cause: { message: 'root cause' } } });
    expect((failure?.err as { stack: string }).stack).toMatch(/^Error: boom\n\s+at /);
  });

  it('is readable, not JSON, with LOG_FORMAT=pretty (pino-pretty, a development dependency)', () => {
    const script = `import { createLogger } from ${JSON.stringify(path.resolve('server/log.ts'))};
createLogger('info', undefined, { pretty: true }).info('hello from development');`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/INFO.*hello from development/);
    expect(result.stdout.trim().startsWith('{')).toBe(false);
  });
});

describe('request ids and the access log', () => {
  it('gives every request an id, echoed in X-Request-Id and on every line of that request, with one access line', async () => {
    const { ctx, port } = await start();
    const first = await rawRequest(port, '/api/user', { headers: { 'X-Request-Id': 'client-chosen-id' } });
    const second = await rawRequest(port, '/api/user');
    const [firstId, secondId] = [first.headers['x-request-id'], second.headers['x-request-id']];
    // Without TRUST_PROXY the client's id is not taken: anyone could forge another request's id.
    expect(firstId).toMatch(/^[\w-]+-[0-9a-z]+$/);
    expect(firstId).not.toBe('client-chosen-id');
    expect(secondId).not.toBe(firstId);
    const access = parse(ctx.logLines).filter((line) => line.req_id === firstId);
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({ level: 'info', method: 'GET', route: '/api/user', status: 401, user_id: null, client: '127.0.0.1' });
    expect(typeof access[0]?.duration_ms).toBe('number');
    // Static answers are named too (here: the page saying the site is being built).
    expect((await rawRequest(port, '/news/')).headers['x-request-id']).toMatch(/^[\w-]+-[0-9a-z]+$/);
  });

  it('takes the id of a trusted proxy when it is plain and short, and names the signed-in user', async () => {
    const { ctx, port } = await start({ TRUST_PROXY: 'true' });
    const proxied = await rawRequest(port, '/api/user', { headers: { 'X-Request-Id': 'edge.4f2a-9', 'X-Forwarded-For': '198.51.100.7' } });
    expect(proxied.headers['x-request-id']).toBe('edge.4f2a-9');
    expect(parse(ctx.logLines).find((line) => line.req_id === 'edge.4f2a-9')).toMatchObject({ route: '/api/user', client: '198.51.100.7' });
    const tooLong = await rawRequest(port, '/api/user', { headers: { 'X-Request-Id': 'x'.repeat(200) } });
    expect(tooLong.headers['x-request-id']).not.toContain('xxxx');

    const user = await createUser(ctx, { email: 'logs-user@example.com' });
    const client = await login(ctx.app, user.email);
    const answer = await client.request('GET', '/api/user');
    const id = answer.headers.get('X-Request-Id');
    expect(parse(ctx.logLines).find((line) => line.req_id === id)).toMatchObject({ route: '/api/user', status: 200, user_id: user.id });
  });

  it('logs a failure with its stack under the request id and the route pattern, never the raw path', async () => {
    const { ctx, port } = await start();
    // Every query now fails: the request ends in the app's onError.
    ctx.db.$client.close();
    const answer = await rawRequest(port, '/api/downloads/987654');
    expect(answer.status).toBe(500);
    const id = answer.headers['x-request-id'];
    const lines = parse(ctx.logLines).filter((line) => line.req_id === id);
    const failure = lines.find((line) => line.level === 'error');
    expect(failure?.msg).toBe('GET /api/downloads/:id{[0-9]+} failed');
    expect((failure?.err as { stack: string }).stack).toMatch(/\n\s+at /);
    expect(lines.find((line) => line.level === 'info')).toMatchObject({ status: 500, route: '/api/downloads/:id{[0-9]+}' });
    expect(ctx.logLines.join('\n')).not.toContain('987654');
    Object.assign(ctx.db, { $client: { close: () => {} } });
  });
});
