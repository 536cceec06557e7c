import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** How the test server answers one request: eligible or not, signed well or not, or never. */
export type SourceBehaviour =
  | { answer: boolean; sign?: 'ok' | 'wrongSecret' | 'none' | 'otherId'; delayMs?: number }
  | { status: number }
  | { hang: true };

export interface ReceivedRequest {
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Whether the request verified with the program's secret. */
  verified: boolean;
}

/**
 * A business's HTTP instant-match endpoint for tests (unit, integration, e2e): a real local server that
 * verifies Eligo's Standard Webhooks signature and answers as told.
 */
export async function startSourceServer(secret: string, behave: (body: string) => SourceBehaviour) {
  const received: ReceivedRequest[] = [];
  const hung: http.ServerResponse[] = [];
  const webhook = new Webhook(secret);
  const other = new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified = true;
      try {
        webhook.verify(body, req.headers as Record<string, string>);
      } catch {
        verified = false;
      }
      received.push({ headers: req.headers, body, verified });
      const behaviour = behave(body);
      if ('hang' in behaviour) return void hung.push(res);
      if ('status' in behaviour) return void res.writeHead(behaviour.status).end();
      const text = JSON.stringify({ eligible: behaviour.answer });
      const id = behaviour.sign === 'otherId' ? 'im_other' : String(req.headers['webhook-id']);
      const now = new Date();
      const signer = behaviour.sign === 'wrongSecret' ? other : webhook;
      const headers: Record<string, string> = { 'content-type': 'application/json', 'webhook-id': id };
      if (behaviour.sign !== 'none') {
        headers['webhook-timestamp'] = String(Math.floor(now.getTime() / 1000));
        headers['webhook-signature'] = signer.sign(id, now, text);
      }
      const send = () => res.writeHead(200, headers).end(text);
      if (behaviour.delayMs) setTimeout(send, behaviour.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/eligibility`,
    received,
    async close() {
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A Standard Webhooks secret for tests. */
export const testSourceSecret = (fill = 1) => `whsec_${Buffer.alloc(32, fill).toString('base64')}`;
