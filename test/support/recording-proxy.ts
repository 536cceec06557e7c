import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request that went through the proxy, with Eligo's answer. */
export interface ProxiedCall {
  method: string;
  path: string;
  authorization: string | undefined;
  status: number;
  body: string;
}

export interface RecordingProxy {
  /** Give this to a client in place of Eligo's URL. */
  url: string;
  calls: ProxiedCall[];
  stop(): Promise<void>;
}

/**
 * An HTTP proxy in front of Eligo that records every call and its answer: shows what a client (a webhook
 * receiver) asked Eligo, with which token, and what it got, without trusting the client's own account of it.
 */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const calls: ProxiedCall[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
          headers[name] = value;
      }
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      fetch(`${target}${req.url}`, {
        method: req.method,
        headers,
        body: hasBody ? Buffer.concat(chunks) : undefined,
      })
        .then(async (answer) => {
          const body = await answer.text();
          calls.push({
            method: req.method ?? '',
            path: req.url ?? '',
            authorization: req.headers.authorization,
            status: answer.status,
            body,
          });
          const type = answer.headers.get('content-type');
          res.writeHead(answer.status, type ? { 'content-type': type } : {}).end(body);
        })
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
