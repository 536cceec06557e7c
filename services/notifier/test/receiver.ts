import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { waitFor } from '@eligo/local-infra';

/** One request the receiver got. */
export interface Received {
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as sent (what the signature covers). */
  body: string;
  at: number;
  /** The answer it was given ('hang': none). */
  answer: Answer;
}

/** A status (with headers), or 'hang': read the request and never answer. */
export type Answer = number | { status: number; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  /** http://127.0.0.1:{port}/hooks */
  url: string;
  received: Received[];
  /** The requests whose body names this verification, in arrival order. */
  of(verificationId: string): Received[];
  /** Answers the next requests for this verification in this order; 200 once the plan is used up. */
  plan(verificationId: string, answers: Answer[]): void;
  /** Waits until `count` requests for the verification arrived; resolves with them. */
  waitFor(verificationId: string, count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A real HTTP server that plays a webhook receiver, answering each verification's requests as planned. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const plans = new Map<string, Answer[]>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      let verificationId = '';
      try {
        verificationId = (JSON.parse(body) as { verificationId?: string }).verificationId ?? '';
      } catch {
        // not JSON: answered 200, recorded as it came
      }
      const answer = plans.get(verificationId)?.shift() ?? 200;
      received.push({ headers: req.headers, body, at: Date.now(), answer });
      if (answer === 'hang') return;
      const { status, headers } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
      res.writeHead(status, headers).end('ok');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const of = (verificationId: string) =>
    received.filter((r) => r.body.includes(`"verificationId":"${verificationId}"`));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    of,
    plan: (verificationId, answers) => plans.set(verificationId, [...answers]),
    waitFor: (verificationId, count, timeoutMs = 30_000) =>
      waitFor(
        `${count} webhook requests for ${verificationId}`,
        () => {
          const got = of(verificationId);
          return got.length >= count ? got : undefined;
        },
        timeoutMs,
      ),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
