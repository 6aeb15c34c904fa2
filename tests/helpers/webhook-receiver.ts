// A local webhook receiver for the delivery tests: records every request and answers as the test says
// (a status, a redirect, or never).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type ReceiverBehaviour = { status: number; location?: string } | 'hang';

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** What the next requests get (the last entry repeats). */
  answer(...behaviours: ReceiverBehaviour[]): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let behaviours: ReceiverBehaviour[] = [{ status: 204 }];
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const behaviour = behaviours.length > 1 ? behaviours.shift()! : behaviours[0]!;
      if (behaviour === 'hang') {
        open.add(response);
        return;
      }
      response.writeHead(behaviour.status, behaviour.location ? { Location: behaviour.location } : {});
      response.end(behaviour.status >= 400 ? 'receiver says no' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answer: (...next) => {
      behaviours = next;
    },
    close: async () => {
      for (const response of open) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
