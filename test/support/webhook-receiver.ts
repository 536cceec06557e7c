import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One delivery a receiver got: its headers and raw body (signatures are over the raw body). */
export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A program's webhook endpoint on 127.0.0.1: answers 200 to every POST and keeps what it got. */
export interface WebhookReceiver {
  callbackUri: string;
  received: ReceivedWebhook[];
  close(): void;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    callbackUri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/eligo`,
    received,
    close: () => server.close(),
  };
}
