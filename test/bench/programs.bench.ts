import { programsV1 } from '@eligo/proto';
import { createClient } from '@eligo/runtime';
import { startAllInProcess } from '../support/in-process';
import { programsApi } from '../support/programs-api';
import { measure, report, type Figures } from './measure';

/**
 * Programs hot paths, figures printed (docs/architecture.md, "Tests"): a token endpoint through the gateway
 * with the auth cache on (default 1 s) against the same with it off (every request calls Authenticate), and
 * reward claims from a pool. Run: `npm run bench -w @eligo/test` (the jest global setup provides the
 * servers).
 */
const REQUESTS = 3000;
const CONCURRENCY = 16;

async function themeFigures(label: string, env: Record<string, string>): Promise<Figures> {
  const eligo = await startAllInProcess(env);
  try {
    const api = programsApi(eligo);
    const { token, program } = await api.tenant('Bench Co');
    const path = `/program/${program.programId}/theme`;
    const warm = await api.v2('GET', path, { token: token.token });
    if (warm.status !== 200) throw new Error(`theme answered ${warm.status}`);
    return await measure(label, REQUESTS, CONCURRENCY, async () => {
      const res = await fetch(`${eligo.httpUrl}/rest/v2${path}`, {
        headers: { authorization: `Bearer ${token.token}` },
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`theme answered ${res.status}`);
    });
  } finally {
    await eligo.stop();
  }
}

it('GET /program/{id}/theme with and without the gateway auth cache; reward claims', async () => {
  const cached = await themeFigures('theme, auth cache 1 s', { ELIGO_GATEWAY_AUTH_CACHE_MS: '1000' });
  const uncached = await themeFigures('theme, no auth cache', { ELIGO_GATEWAY_AUTH_CACHE_MS: '0' });

  const eligo = await startAllInProcess();
  let claims: Figures;
  try {
    const api = programsApi(eligo);
    const { account } = await api.tenant('Pool Co');
    const program = await api.createProgram(account.accountId, { offerType: 'rewardPool' });
    const codes = Array.from({ length: 5000 }, (_, i) => `BENCH-${i}`);
    await api.admin('POST', `/programs/${program.programId}/rewardCodes`, { body: { codes } });
    const client = createClient(programsV1.ProgramsServiceClient, eligo.grpcAddress, { deadlineMs: 10_000 });
    claims = await measure('ClaimRewardCode (gRPC)', 5000, CONCURRENCY, async (i) => {
      await client.unary('claimRewardCode', {
        programId: program.programId,
        verificationId: `v-${i}`,
      });
    });
    client.close();
  } finally {
    await eligo.stop();
  }
  report('programs benchmark (same machine, same run)', [cached, uncached, claims]);
  process.stdout.write(
    `auth cache speed-up: ${(cached.perSecond / uncached.perSecond).toFixed(2)}x throughput, ` +
      `p99 ${uncached.p99ms} ms -> ${cached.p99ms} ms\n`,
  );
}, 600_000);
