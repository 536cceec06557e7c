import { createHmac, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { createDb } from '@eligo/runtime';
import { freshDatabase, realServersEnv, startEligo, waitReady } from '../support/eligo-process';
import { programsApi } from '../support/programs-api';
import { machineCores, observePhase, type PhaseUsage } from './process-usage';
import { benchNodeArgs } from './bench-node';

/**
 * Customer eligibility lists (issue 22): a list of 1,000,000 generated rows (an email and a member id each,
 * so 2,000,000 keyed identifiers) uploaded as CSV through PUT /rest/admin/v1/programs/{id}/eligibility-list,
 * streamed by the gateway into the verification service's import, with the peak RSS of the Eligo process
 * (gateway and verification: `eligo start --target all`) sampled. Baselines in the same run: the same body
 * streamed into a bare Node server that drops it (the floor of moving the bytes), and the same number of
 * HMACs inserted straight into Postgres with the same statement and primary key (the floor of storing them).
 * Goal: under 60 s, memory flat. Run: `npm run bench -w @eligo/test -- eligibility-list`.
 */
const ROWS = Number(process.env.ELIGO_BENCH_LIST_ROWS ?? 1_000_000);
const CHUNK_ROWS = 1000;
const SQL_BATCH = 4000;

/** The CSV body, generated as it is read: the bench never holds it whole either. */
function csvBody(rows: number): Readable {
  return Readable.from(
    (function* () {
      yield Buffer.from('email,memberId\n');
      for (let at = 0; at < rows; at += CHUNK_ROWS) {
        let chunk = '';
        for (let i = at; i < Math.min(rows, at + CHUNK_ROWS); i++)
          chunk += `person.${i}@bench-example.com,M-${i.toString().padStart(8, '0')}\n`;
        yield Buffer.from(chunk);
      }
    })(),
    { objectMode: false },
  );
}

async function put(
  url: string,
  token: string,
  body: Readable,
): Promise<{ status: number; json: UploadReply | undefined }> {
  const res = await fetch(url, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
    body: Readable.toWeb(body) as ReadableStream<Uint8Array>,
    duplex: 'half',
  } as RequestInit);
  return { status: res.status, json: (await res.json().catch(() => undefined)) as UploadReply | undefined };
}

interface UploadReply {
  rowsStored: number;
  list: { version: number };
}

/** A server that reads every byte of a request and drops it. */
async function sink(): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    req.on('data', () => undefined);
    req.on('end', () => res.end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

const row = (what: string, use: PhaseUsage, extra: Record<string, unknown> = {}) => ({
  what,
  seconds: Math.round(use.seconds * 10) / 10,
  'rows/s': Math.round(ROWS / use.seconds),
  peakRssMb: use.peakRssMb,
  processCpuSeconds: Math.round(use.processCpuSeconds * 10) / 10,
  busyCores: Math.round((use.machineCpuSeconds / use.seconds) * 100) / 100,
  ...extra,
});

it(`PUT eligibility-list of ${ROWS} rows: through the gateway against the bare floors`, async () => {
  const database = await freshDatabase();
  const servers = realServersEnv(database.url);
  const adminToken = `eligo_admin_${randomBytes(16).toString('hex')}`;
  const eligo = await startEligo(
    ['start', '--target', 'all'],
    { ...servers, ELIGO_ADMIN_TOKEN: adminToken, ELIGO_ORGANIZATIONS_SEED: 'none', ELIGO_LOG_LEVEL: 'warn' },
    undefined,
    benchNodeArgs(),
  );
  const db = createDb({ url: database.url, schema: 'public', poolMax: 2, applicationName: 'bench' });
  try {
    await waitReady(eligo);
    const api = programsApi({ httpUrl: eligo.httpUrl, adminToken });
    const { account } = await api.tenant('Bench Lists');
    const { programId } = await api.createProgram(account.accountId, { segment: 'member' });
    const listUrl = `${eligo.httpUrl}/rest/admin/v1/programs/${programId}/eligibility-list`;
    const pid = eligo.child.pid!;

    // Warm-up: the code paths and the tables, with a small list.
    const warm = await put(listUrl, adminToken, csvBody(10_000));
    if (warm.status !== 200) throw new Error(`warm-up answered ${warm.status}: ${JSON.stringify(warm.json)}`);

    const dropped = await sink();
    const [, devNull] = await observePhase(process.pid, () => put(dropped.url, adminToken, csvBody(ROWS)));
    dropped.close();

    // The storage floor: the same HMACs, the same statement and key, from this process.
    await db.raw(
      'create table bench_list_rows (kind smallint not null, hmac bytea not null, list_id bigint not null, ' +
        'primary key (kind, hmac, list_id))',
    );
    const key = randomBytes(32);
    const [, rawSql] = await observePhase(process.pid, async () => {
      for (let at = 0; at < ROWS; at += SQL_BATCH / 2) {
        const kinds: number[] = [];
        const hmacs: Buffer[] = [];
        for (let i = at; i < Math.min(ROWS, at + SQL_BATCH / 2); i++) {
          kinds.push(1, 2);
          hmacs.push(
            createHmac('sha256', key).update(`person.${i}@bench-example.com`).digest(),
            createHmac('sha256', key)
              .update(`m-${i.toString().padStart(8, '0')}`)
              .digest(),
          );
        }
        await db.raw(
          'insert into bench_list_rows (kind, hmac, list_id) select k, h, 1 from unnest(?::smallint[], ?::bytea[]) as t(k, h) on conflict do nothing',
          [kinds, hmacs],
        );
      }
    });

    const [upload, eligoUse] = await observePhase(pid, () => put(listUrl, adminToken, csvBody(ROWS)));
    if (upload.status !== 200)
      throw new Error(`upload answered ${upload.status}: ${JSON.stringify(upload.json)}`);
    if (upload.json?.rowsStored !== ROWS) throw new Error(`stored ${upload.json?.rowsStored} of ${ROWS}`);

    process.stdout.write(`\neligibility list of ${ROWS} rows (2 identifiers each; ${machineCores} cores)\n`);
    console.table([
      row('body streamed into a dropping Node server', devNull),
      row('same HMACs inserted straight into Postgres', rawSql),
      row('PUT through the gateway into the verification service', eligoUse, {
        version: upload.json.list.version,
      }),
    ]);
    const ratio = eligoUse.seconds / rawSql.seconds;
    process.stdout.write(
      `upload/raw SQL ${ratio.toFixed(2)}; upload ${eligoUse.seconds.toFixed(1)} s ` +
        `(goal < 60 s: ${eligoUse.seconds < 60 ? 'met' : 'NOT met'}), peak RSS +${eligoUse.peakRssMb} MiB\n`,
    );
  } finally {
    await db.destroy();
    await eligo.stop();
    await database.drop();
  }
}, 600_000);
