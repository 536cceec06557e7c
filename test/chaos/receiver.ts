import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got, and what it answered. */
export interface Received {
  webhookId: string;
  verificationId: string | undefined;
  eventType: string;
  status: number;
  signatureOk: boolean;
  at: number;
}

export interface WebhookReceiver {
  /** The https callback URI (live programs are only called over https). */
  url: string;
  /** The self-signed certificate: the notifier trusts it through NODE_EXTRA_CA_CERTS. */
  certFile: string;
  received: Received[];
  /** Set once the program's webhook exists (the secret is shown once). */
  setSecret(secret: string): void;
  close(): Promise<void>;
}

/** mulberry32: a small seeded PRNG, so that which requests fail is the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * An https receiver on 127.0.0.1 that answers 500 to `failRate` of the requests (deterministic pseudo-random)
 * and 200 to the others, recording every request with its webhook-id and the verification it names.
 */
export async function startReceiver(dir: string, failRate: number, seed = 18): Promise<WebhookReceiver> {
  const keyFile = path.join(dir, 'receiver-key.pem');
  const certFile = path.join(dir, 'receiver-cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
    ],
    { stdio: 'ignore' },
  );
  const random = prng(seed);
  const received: Received[] = [];
  let webhook: Webhook | undefined;
  const server: Server = createServer(
    { key: readFileSync(keyFile), cert: readFileSync(certFile) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let verificationId: string | undefined;
        try {
          verificationId = (JSON.parse(body) as { verificationId?: string }).verificationId;
        } catch {
          verificationId = undefined;
        }
        let signatureOk = false;
        try {
          webhook?.verify(body, req.headers as Record<string, string>);
          signatureOk = webhook !== undefined;
        } catch {
          signatureOk = false;
        }
        const status = random() < failRate ? 500 : 200;
        received.push({
          webhookId: String(req.headers['webhook-id'] ?? ''),
          verificationId,
          eventType: String(req.headers['x-eligo-notifier-event-type'] ?? ''),
          status,
          signatureOk,
          at: Date.now(),
        });
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'chaos');
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/eligo`,
    certFile,
    received,
    setSecret: (secret) => (webhook = new Webhook(secret)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
