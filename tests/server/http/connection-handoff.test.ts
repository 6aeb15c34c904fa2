// Which first requests make a web worker hand its connection to the main process: only whole, body-less
// API requests, since bytes still on their way could be lost with the socket moving between processes.
import { describe, expect, it } from 'vitest';
import { belongsToMainProcess } from '../../../server/http/connection-handoff.ts';

const request = (line: string, headers: string[] = []) => Buffer.from([line, 'Host: localhost', ...headers, '', ''].join('\r\n'), 'latin1');

describe('belongsToMainProcess', () => {
  it('takes whole GET and HEAD requests for the API and the XSRF cookie', () => {
    expect(belongsToMainProcess(request('GET /api/user HTTP/1.1'))).toBe(true);
    expect(belongsToMainProcess(request('HEAD /api/news/getPosts/byslug/releases HTTP/1.1'))).toBe(true);
    expect(belongsToMainProcess(request('GET /sanctum/csrf-cookie HTTP/1.1', ['Content-Length: 0']))).toBe(true);
  });

  it('leaves pages, media and anything with a body to the worker', () => {
    expect(belongsToMainProcess(request('GET /news/ HTTP/1.1'))).toBe(false);
    expect(belongsToMainProcess(request('GET /media/news/a.webp HTTP/1.1'))).toBe(false);
    expect(belongsToMainProcess(request('GET /apiary HTTP/1.1'))).toBe(false);
    expect(belongsToMainProcess(request('POST /api/auth/login HTTP/1.1', ['Content-Length: 20']))).toBe(false);
    expect(belongsToMainProcess(request('GET /api/user HTTP/1.1', ['Content-Length: 5']))).toBe(false);
    expect(belongsToMainProcess(request('GET /api/user HTTP/1.1', ['Transfer-Encoding: chunked']))).toBe(false);
  });

  it('leaves a request whose headers have not all arrived, or are huge, to the worker', () => {
    expect(belongsToMainProcess(Buffer.from('GET /api/user HTTP/1.1\r\nHost: loc', 'latin1'))).toBe(false);
    expect(belongsToMainProcess(request('GET /api/user HTTP/1.1', [`Cookie: ${'a'.repeat(20_000)}`]))).toBe(false);
  });
});
