// Load generator for the document upload benchmark, run in its own process so that building request
// bodies does not take the event loop of the server being measured. Input (stdin, JSON: a thousand presigned
// URLs are more than one argument may hold):
// { mode: 'direct' | 'formB' | 'formBProxy', urls: string[], concurrency, head (hex of the file's first bytes),
// bytes }. formBProxy sends form B's request (the same multipart body) to a pass-through proxy, which answers
// the store's status rather than Eligo's JSON.
// Output (stdout, JSON): { seconds, latencies } with latencies in milliseconds.
'use strict';
const { randomBytes } = require('node:crypto');
const { readFileSync } = require('node:fs');

async function main() {
  const job = JSON.parse(readFileSync(0, 'utf8'));
  const head = Buffer.from(job.head, 'hex');
  const file = Buffer.concat([head, randomBytes(job.bytes - head.length)]);
  const send = async (url) => {
    let res;
    if (job.mode === 'direct') {
      res = await fetch(url, { method: 'PUT', body: file, headers: { 'content-type': 'image/png' } });
    } else {
      const form = new FormData();
      form.append('file1', new Blob([file], { type: 'image/png' }), 'card.png');
      res = await fetch(url, { method: 'POST', body: form });
    }
    const text = await res.text();
    const ok = job.mode === 'formB' ? res.status === 200 && text.includes('"pending"') : res.status === 200;
    if (!ok) throw new Error(`${job.mode} upload: ${res.status} ${text.slice(0, 300)}`);
  };
  const latencies = [];
  let next = 0;
  const started = process.hrtime.bigint();
  const worker = async () => {
    while (next < job.urls.length) {
      const url = job.urls[next++];
      const t0 = process.hrtime.bigint();
      await send(url);
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  };
  await Promise.all(Array.from({ length: job.concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stdout.write(JSON.stringify({ seconds, latencies }));
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
