import { profiles } from '../schemathesis/config';
import { failureDigest, runSchemathesis } from '../schemathesis/run';
import { seed, type Seeded } from '../schemathesis/seed';
import {
  errorLines,
  freePort,
  startEligoSuite,
  type EligoProcess,
  type EligoSuite,
} from '../support/eligo-process';

// Schemathesis against `eligo start --target all` on real Postgres, Kafka and MinIO: requests generated from
// the OpenAPI document the gateway serves (valid and invalid ones, every operation, then stateful sequences
// along its links), every check on, as two accounts and the operator. The document must say exactly what the
// server accepts and answers. ELIGO_SCHEMATHESIS_PROFILE=full (`npm run fuzz`) runs 1000 examples per
// operation instead of the CI profile's 50; ELIGO_SCHEMATHESIS_SEED replays a run.
const profileName = (process.env.ELIGO_SCHEMATHESIS_PROFILE ?? 'ci') as keyof typeof profiles;
const examples = Number(process.env.ELIGO_SCHEMATHESIS_EXAMPLES) || undefined;
const profile = { ...profiles[profileName], ...(examples ? { maxExamples: examples } : {}) };
const runTimeoutMs = profileName === 'full' ? 3 * 60 * 60_000 : 20 * 60_000;
const operatorToken = `eligo_admin_${'schemathesis'.repeat(3)}`;

let suite: EligoSuite | undefined;
let eligo: EligoProcess | undefined;
let seeded: Seeded;

/** A running Eligo to test instead of starting one (development: ELIGO_SCHEMATHESIS_TARGET + ELIGO_ADMIN_TOKEN). */
const target = process.env.ELIGO_SCHEMATHESIS_TARGET;
let httpUrl: string;

beforeAll(async () => {
  if (target) {
    httpUrl = target;
    seeded = await seed(target, process.env.ELIGO_ADMIN_TOKEN ?? '');
    return;
  }
  const port = await freePort();
  suite = await startEligoSuite(operatorToken, {
    ELIGO_HTTP_PORT: String(port),
    ELIGO_PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    ELIGO_LOG_LEVEL: 'warn',
  });
  eligo = suite.eligo;
  httpUrl = eligo.httpUrl;
  seeded = await seed(httpUrl, operatorToken);
}, 180_000);

afterAll(async () => {
  await suite?.stop();
});

it(
  `finds no failure in any operation (${profile.maxExamples} examples each, every check)`,
  async () => {
    const result = await runSchemathesis(httpUrl, seeded, profile, runTimeoutMs);
    if (result.exitCode !== 0) {
      // The failures with their curl reproductions, and what the server logged meanwhile.
      throw new Error(
        `schemathesis exited ${result.exitCode}: ${failureDigest(result.output, result.seed)}\n\n` +
          `(report: ${result.reportDir})\n${result.output.slice(-60_000)}\n` +
          // Eligo logs its levels by name ("level":"error"): the numeric filter this had never matched.
          `--- eligo errors ---\n${errorLines(eligo?.output() ?? '', 30)}`,
      );
    }
    expect(result.output).toMatch(/Test cases:\s+\d+ generated, \d+ passed/);
  },
  runTimeoutMs + 60_000,
);
