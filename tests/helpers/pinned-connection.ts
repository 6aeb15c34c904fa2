// One keep-alive connection to a server that runs several serving processes (SERVED_BY_HEADER on), answered
// by a process of our choosing: the kernel picks the process per connection, so we open connections until
// the one we want answers, and then send every request on it. When the server has closed it meanwhile (a
// keep-alive connection idle for 5 s, as on a slow machine while a test waits for a build), the next
// request pins a new one to the same process first, as a browser opens a new connection; a request that met
// the server's close as it went out is sent again that way (never a streamed body). A cookie jar
// makes it a small browser.
import http from 'node:http';
import type net from 'node:net';
import type { Readable } from 'node:stream';
import { BOTCHECK_CHALLENGE_PATH, encodeBotToken, solveFetchedChallenge } from './botcheck.ts';

export interface PinnedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
  /** X-Served-By: `main` or `worker-1`, the process that answered. */
  servedBy: string;
}

export interface PinnedRequest {
  headers?: Record<string, string>;
  /** A Readable is streamed (chunked unless Content-Length is given). */
  body?: string | Buffer | Readable;
}

/** The errors of requests that met the server's close of the idle keep-alive connection they were written to. */
const resetAsItWentOut = new WeakSet<object>();

export class PinnedConnection {
  readonly cookies = new Map<string, string>();
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  readonly port: number;
  /** The process that holds this connection; every answer is checked against it. */
  readonly answeredBy: string;

  /** What a request asks to learn which process holds a new connection. */
  private readonly probePath: string;

  constructor(port: number, answeredBy: string, probePath = '/') {
    this.port = port;
    this.answeredBy = answeredBy;
    this.probePath = probePath;
  }

  /** Sends probes on new connections until `answeredBy` holds one; false when 64 tries found none. */
  async pin(): Promise<boolean> {
    for (let attempt = 0; attempt < 64; attempt++) {
      const probe = await this.send('GET', this.probePath);
      if (probe.servedBy === this.answeredBy) return true;
      this.agent.destroy();
    }
    return false;
  }

  /** pin(), or an error saying no new connection reached `answeredBy` (with the failure that led here, if any). */
  private async pinOrFail(cause?: unknown): Promise<void> {
    if (!(await this.pin())) throw new Error(`no new connection to port ${this.port} was answered by ${this.answeredBy}`, { cause });
  }

  async request(method: string, target: string, options: PinnedRequest = {}): Promise<PinnedAnswer> {
    if (!this.socket()) await this.pinOrFail();
    let answer: PinnedAnswer;
    try {
      answer = await this.send(method, target, options);
    } catch (error) {
      // The server closed the idle connection just as this request went out on it (it never read the
      // request): send it again on a new connection to the same process, as browsers and Node's own
      // documentation do for a reused socket. A streamed body cannot be sent twice.
      if (!resetAsItWentOut.has(error as object) || isStream(options.body)) throw error;
      this.agent.destroy();
      await this.pinOrFail(error);
      answer = await this.send(method, target, options);
    }
    if (answer.servedBy !== this.answeredBy) {
      throw new Error(`${method} ${target} was answered by ${answer.servedBy}, not on the connection to ${this.answeredBy}`);
    }
    return answer;
  }

  /** What the browser client adds to its API calls: the cookies it holds and the XSRF header from its cookie. */
  browserHeaders(): Record<string, string> {
    const headers: Record<string, string> = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
    if (this.cookies.size > 0) headers.Cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const xsrf = this.cookies.get('XSRF-TOKEN');
    if (xsrf !== undefined) headers['X-XSRF-TOKEN'] = decodeURIComponent(xsrf);
    return headers;
  }

  /** Like a browser: browserHeaders(), JSON in and out, and the cookies it is sent kept. */
  async api(method: string, target: string, json?: unknown, headers: Record<string, string> = {}): Promise<PinnedAnswer> {
    const all = { ...this.browserHeaders(), ...headers };
    let body: string | undefined;
    if (json !== undefined) {
      all['Content-Type'] = 'application/json';
      body = JSON.stringify(json);
    }
    return this.keepCookies(await this.request(method, target, { headers: all, body }));
  }

  keepCookies(answer: PinnedAnswer): PinnedAnswer {
    for (const line of [answer.headers['set-cookie'] ?? []].flat()) {
      const [pair = ''] = line.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      if (value === '' || /max-age=0\b/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return answer;
  }

  /** A g_token for login: the challenge fetched on this connection, solved in-process. */
  async botToken(): Promise<string> {
    const answer = await this.api('GET', BOTCHECK_CHALLENGE_PATH);
    if (answer.status !== 200) throw new Error(`challenge answered ${answer.status}`);
    const challenge = JSON.parse(answer.text) as Parameters<typeof solveFetchedChallenge>[0];
    return encodeBotToken(challenge, await solveFetchedChallenge(challenge));
  }

  close(): void {
    this.agent.destroy();
  }

  /** The open connection between requests (for raw writes, or to watch it close), if the server kept it. */
  socket(): net.Socket | undefined {
    return Object.values(this.agent.freeSockets).flat()[0];
  }

  send(method: string, target: string, options: PinnedRequest = {}): Promise<PinnedAnswer> {
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: this.port, method, path: target, headers: options.headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8'), servedBy: String(res.headers['x-served-by'] ?? '') });
        });
        res.on('error', reject);
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (req.reusedSocket && error.code === 'ECONNRESET') resetAsItWentOut.add(error);
        reject(error);
      });
      const body = options.body;
      if (isStream(body)) body.pipe(req);
      else req.end(body);
    });
  }
}

const isStream = (body: PinnedRequest['body']): body is Readable => body !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body);

/** A connection whose static answers come from `answeredBy` (`main` or `worker-N`); tries up to 64 connections. */
export async function connectTo(port: number, answeredBy: string, probePath = '/'): Promise<PinnedConnection> {
  const connection = new PinnedConnection(port, answeredBy, probePath);
  if (await connection.pin()) return connection;
  connection.close();
  throw new Error(`no connection to port ${port} was answered by ${answeredBy}`);
}
