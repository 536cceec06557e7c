import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createS3ObjectStore, type ObjectStore } from '@eligo/runtime';
import { sampleFiles } from '../support/documents-api';
import { freshDatabase, realServersEnv, startEligo, waitReady } from '../support/eligo-process';
import { programsApi } from '../support/programs-api';
import { importUniversity, janeDoe, verificationApi } from '../support/verification-api';
import { report, summarize, type Figures } from './measure';
import { machineCores, observePhase, type PhaseUsage } from './process-usage';
import { benchEnv, benchNodeArgs } from './bench-node';

/**
 * Form B upload of a 5 MB file through the gateway (multipart parsed as it streams -> one UploadFiles call -> the
 * documents service sniffs and seals the file into MinIO as it arrives, review queued) against a bare Node
 * pass-through proxy and a direct presigned PUT of the same bytes to MinIO, in the same run on the suite's MinIO.
 * The proxy is measured twice: PUT the raw file (the only proxy row until 2026-12-07), and sent form B's own
 * request (the same multipart body the gateway is sent, stored as it comes), whose clients cost what form B's
 * cost: on two shared cores, a client that builds a multipart body takes CPU from whichever server it talks to.
 * The server runs as operators run it (`eligo start --target all`, its own process) and the clients in a third
 * process. Per phase: throughput, the machine's busy cores and CPU per upload (every process: clients, MinIO,
 * Postgres, Kafka, eligo), eligo's own CPU per upload and its peak RSS above the phase's start (flat: it does not
 * grow with the number or size of the uploads). Goal: gateway >= 70% of the throughput of the bare proxy sent the
 * same request, memory flat. Run: `cd test && npm run bench -- documents`; ELIGO_BENCH_NODE_ARGS passes flags to
 * eligo's node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`, and ELIGO_BENCH_ENV variables to its environment
 * (NAME=value, space-separated).
 */
/**
 * Uploads per row: 120 by default (5 MB rows of 3-6 s). ELIGO_BENCH_UPLOADS (20-5000) sets another count, e.g. 1000
 * with 4 KiB files, whose 120 uploads take about 1.5 s: too short a row to compare one run with the next.
 */
const UPLOADS = wholeNumber('ELIGO_BENCH_UPLOADS', process.env.ELIGO_BENCH_UPLOADS, 120, 20, 5000);
/**
 * Untimed uploads of each kind (form B, bare proxy, direct) before the rows. With two, V8 was still compiling
 * Eligo's code during the form B rows (perf: its compiler threads took an eighth of the process's CPU over
 * them), which measured a server warming up rather than one serving (as in the topology benchmark).
 */
const WARM_UP = 60;
const CONCURRENCY = [4, 8];
/**
 * 5 MB, the goal's file. ELIGO_BENCH_FILE_BYTES (4 KiB-10 MiB) sets another size, e.g. a few KB to price what
 * an upload costs whatever its size (its calls, transaction and events) apart from what its bytes cost.
 */
const FILE_BYTES = wholeNumber(
  'ELIGO_BENCH_FILE_BYTES',
  process.env.ELIGO_BENCH_FILE_BYTES,
  5 * 1024 * 1024,
  4096,
  10 * 1024 * 1024,
);

function wholeNumber(name: string, given: string | undefined, fallback: number, min: number, max: number) {
  if (given === undefined) return fallback;
  const value = Number(given);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name}: ${given} is not a whole number from ${min} to ${max}`);
  return value;
}

/**
 * Runs the uploads from another process (bench/load/upload-client.js), `concurrency` at a time: building
 * 5 MB request bodies is the clients' work and must not take the event loop of the server being measured.
 * The file is a real PNG header followed by noise (the documents service sniffs the first bytes).
 */
async function load(
  label: string,
  mode: 'direct' | 'formB' | 'formBProxy',
  urls: string[],
  concurrency: number,
) {
  const job = { mode, urls, concurrency, head: sampleFiles.png.toString('hex'), bytes: FILE_BYTES };
  const client = promisify(execFile)(process.execPath, [join(__dirname, 'load', 'upload-client.js')], {
    maxBuffer: 1024 * 1024,
  });
  client.child.stdin!.end(JSON.stringify(job));
  const { stdout } = await client;
  const { seconds, latencies } = JSON.parse(stdout) as { seconds: number; latencies: number[] };
  return summarize(label, urls.length, concurrency, seconds, latencies);
}

/** PUT / streams each body on to the next of `targets`, declaring its length; answers the store's status. */
async function passThroughProxy(targets: string[]) {
  let next = 0;
  const server = createServer((req, res) => {
    const out = httpRequest(
      targets[next++]!,
      {
        method: 'PUT',
        headers: { 'content-length': req.headers['content-length'], 'content-type': 'image/png' },
      },
      (store) => {
        store.resume();
        store.on('end', () => res.writeHead(store.statusCode ?? 502).end());
      },
    );
    out.on('error', () => res.writeHead(502).end());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

/** Deletes every object of the bucket behind `store` (one that was never created has none). */
async function emptyBucket(store: ObjectStore) {
  const keys: string[] = [];
  try {
    for await (const { key } of store.list('')) keys.push(key);
  } catch (err) {
    if ((err as { code?: string }).code !== 'NoSuchBucket') throw err;
  }
  for (let i = 0; i < keys.length; i += 16)
    await Promise.all(keys.slice(i, i + 16).map((key) => store.delete(key)));
}

interface Row extends Figures {
  'MB/s': number;
  /** Cores the machine kept busy on average: at the core count, the machine was the limit. */
  busyCores: number;
  machineCpuMsPerUpload: number;
  /** The process the uploads go through: eligo (idle in the direct rows), the bench's for the bare proxy. */
  serverCpuMsPerUpload: number;
  serverPeakRssMb: number;
}

function row(figures: Figures, use: PhaseUsage): Row {
  const perUpload = (seconds: number) => Math.round((seconds * 1000) / figures.total);
  return {
    ...figures,
    'MB/s': Math.round((figures.perSecond * FILE_BYTES) / 1024 / 1024),
    busyCores: Math.round((use.machineCpuSeconds / use.seconds) * 100) / 100,
    machineCpuMsPerUpload: perUpload(use.machineCpuSeconds),
    serverCpuMsPerUpload: perUpload(use.processCpuSeconds),
    serverPeakRssMb: use.peakRssMb,
  };
}

it('form B upload of a 5 MB file: through the gateway against a direct PUT to MinIO', async () => {
  const database = await freshDatabase();
  const servers = realServersEnv(database.url);
  const storeOn = (bucket: string) =>
    createS3ObjectStore({
      endpoint: servers.ELIGO_S3_ENDPOINT!,
      accessKey: servers.ELIGO_S3_ACCESS_KEY!,
      secretKey: servers.ELIGO_S3_SECRET_KEY!,
      bucket,
      region: 'us-east-1',
      pathStyle: true,
    });
  // The direct and proxied uploads' bucket; both it and Eligo's are emptied at the end (a run stores some
  // thousand 5 MB objects: a few runs filled this machine's disk).
  const store = storeOn(`bench-direct-${randomBytes(4).toString('hex')}`);
  const adminToken = `eligo_admin_${randomBytes(16).toString('hex')}`;
  // The server as operators run it: `eligo start --target all` in its own process. ELIGO_BENCH_NODE_ARGS
  // passes flags to its node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` for a profile.
  const eligo = await startEligo(
    ['start', '--target', 'all'],
    {
      ...servers,
      ELIGO_ADMIN_TOKEN: adminToken,
      ELIGO_ORGANIZATIONS_SEED: 'none',
      ELIGO_LOG_LEVEL: 'warn',
      ...benchEnv(),
    },
    undefined,
    benchNodeArgs(),
  );
  try {
    await waitReady(eligo);
    const api = programsApi({ httpUrl: eligo.httpUrl, adminToken });
    const flow = verificationApi(api);
    const { account } = await api.tenant('Bench Docs');
    const { programId } = await api.createProgram(account.accountId, {
      offerType: 'staticCode',
      rewardCode: 'B',
    });
    const organization = await importUniversity(api, programId);

    // One verification at docUpload per upload (each upload ends its verification's docUpload step).
    const phases = CONCURRENCY.length;
    const atDocUpload = async (i: number) => {
      const { verificationId } = await flow.started(programId);
      const res = await flow.submit(verificationId, 'collectStudentPersonalInfo', {
        ...janeDoe,
        firstName: 'REJECTED',
        email: `bench-${i}@example.com`,
        organization,
      });
      if (res.body.currentStep !== 'docUpload') throw new Error(JSON.stringify(res.body));
      return `${eligo.httpUrl}/rest/v2/verification/${verificationId}/step/docUpload`;
    };
    const urls: string[] = [];
    for (let i = 0; i < UPLOADS * phases + WARM_UP; i += 8)
      urls.push(...(await Promise.all(Array.from({ length: 8 }, (_, j) => atDocUpload(i + j)))));
    await store.ensureBucket();
    const directUrls = await Promise.all(
      Array.from({ length: (UPLOADS * phases + WARM_UP) * 3 }, (_, i) =>
        store.presignPut(`direct/${i}`, { expiresInSeconds: 600 }),
      ),
    );

    // The floor of any gateway here: a bare Node pass-through (no multipart, no checks, no encryption, no calls)
    // in this process, PUTting each body to its own presigned URL: the raw file's, and form B's whole request
    // body (the same multipart request the gateway is sent, so that its clients cost what form B's cost).
    const passThrough = await passThroughProxy(directUrls.slice(UPLOADS * phases, -WARM_UP));

    const pid = eligo.child.pid!;
    const rows: Row[] = [];
    await load('warm-up', 'direct', directUrls.slice(-WARM_UP), 4);
    await load('warm-up', 'formB', urls.slice(-WARM_UP), 4);
    await load('warm-up', 'direct', Array(WARM_UP).fill(passThrough.url), 4);
    await load('warm-up', 'formBProxy', Array(WARM_UP).fill(passThrough.url), 4);
    for (const [phase, concurrency] of CONCURRENCY.entries()) {
      const slice = (all: string[]) => all.slice(phase * UPLOADS, (phase + 1) * UPLOADS);
      const label = (what: string) => `${what}, ${concurrency} clients`;
      const direct = await observePhase(pid, () =>
        load(label('direct PUT to MinIO'), 'direct', slice(directUrls), concurrency),
      );
      const gateway = await observePhase(pid, () =>
        load(label('form B through the gateway'), 'formB', slice(urls), concurrency),
      );
      // The proxy runs in this process: its CPU is the bench's own.
      const throughProxy = (what: string, mode: 'direct' | 'formBProxy') =>
        observePhase(process.pid, () =>
          load(label(what), mode, Array(UPLOADS).fill(passThrough.url), concurrency),
        );
      const bare = await throughProxy('bare Node pass-through proxy', 'direct');
      const bareFormB = await throughProxy('bare proxy, form B request', 'formBProxy');
      rows.push(row(...direct), row(...bare), row(...bareFormB), row(...gateway));
      const ratio = gateway[0].perSecond / bareFormB[0].perSecond;
      const ofRawProxy = gateway[0].perSecond / bare[0].perSecond;
      const ofDirect = gateway[0].perSecond / direct[0].perSecond;
      process.stdout.write(
        `${concurrency} clients: gateway/bare proxy of the same request ${ratio.toFixed(2)} ` +
          `(goal >= 0.70: ${ratio >= 0.7 ? 'met' : 'NOT met'}); gateway/bare proxy of the raw file ` +
          `${ofRawProxy.toFixed(2)}; gateway/direct ${ofDirect.toFixed(2)}\n`,
      );
    }
    report(
      `${UPLOADS} uploads of ${(FILE_BYTES / 1024 / 1024).toFixed(2)} MiB per row (perSecond = uploads/s; ${machineCores} cores)`,
      rows,
    );
    passThrough.server.close();
  } finally {
    await eligo.stop();
    await database.drop();
    await emptyBucket(store);
    await emptyBucket(storeOn(servers.ELIGO_S3_BUCKET!));
  }
}, 600_000);
