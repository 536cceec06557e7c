import { randomBytes } from 'node:crypto';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
// The harness's own broker start (deploy/local), from source: @eligo/local-infra depends on the runtime, so the
// runtime cannot depend on it, and the source needs no build of it first.
import { runCommand } from '../../../../deploy/local/src/command';
import { harnessConfig } from '../../../../deploy/local/src/config';
import { findJava } from '../../../../deploy/local/src/java';
import { startKafkaBroker, type KafkaBroker } from '../../../../deploy/local/src/kafka';
import { loadConfig } from '../../src/config/config';
import type { DeliveredMessage } from '../../src/events/event-bus';
import { createKafkaEventBus, type KafkaEventBus } from '../../src/events/kafka-bus';
import { createLogger } from '../../src/logging/logger';
import { startInfrastructure } from '../../src/module/infrastructure';
import { randomName, waitFor } from './helpers';

// TLS and SASL against a broker of this test's own (the shared one is plaintext), through the bus the runtime
// builds from parsed configuration: what a real cluster (MSK, Confluent Cloud, Strimzi) asks of Eligo.
//   SECURE    SASL_SSL        PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 (credentials made by the storage format)
//   TLS       SSL             TLS only
//   CLEARTEXT SASL_PLAINTEXT  PLAIN without TLS (allowed, with a warning)
// The certificate is self-signed for 127.0.0.1 and localhost: it is its own CA.

const password = `pw-${randomBytes(12).toString('hex')}`;
const keystorePassword = randomBytes(12).toString('hex');
const wrongPassword = `wrong-${randomBytes(6).toString('hex')}`;
const secrets = [password, wrongPassword, keystorePassword];

let dir: string;
let caFile: string;
let passwordFile: string;
let broker: KafkaBroker | undefined;
const buses: KafkaEventBus[] = [];
/** Every line every bus logged (debug level: kafkajs's own lines included), to look for secrets in. */
const logLines: string[] = [];

const plainJaas = (users: Record<string, string>): string =>
  'org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" ' +
  `password="${users.admin}" ${Object.entries(users)
    .map(([user, pw]) => `user_${user}="${pw}"`)
    .join(' ')};`;
const scramJaas = 'org.apache.kafka.common.security.scram.ScramLoginModule required;';

async function keytool(java: string, args: string[]): Promise<void> {
  await runCommand(join(dirname(realpathSync(java)), 'keytool'), args, { cwd: dir, timeoutMs: 60_000 });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'eligo-kafka-security-'));
  const harness = harnessConfig(process.env, { kafkaVersion: process.env.ELIGO_TEST_KAFKA_VERSION });
  const java = await findJava(process.env, 17);
  const keystore = join(dir, 'broker.p12');
  caFile = join(dir, 'ca.pem');
  await keytool(java, [
    ...['-genkeypair', '-alias', 'broker', '-keyalg', 'RSA', '-keysize', '2048', '-validity', '2'],
    ...['-storetype', 'PKCS12', '-keystore', keystore, '-storepass', keystorePassword],
    ...['-dname', 'CN=localhost', '-ext', 'SAN=IP:127.0.0.1,DNS:localhost'],
  ]);
  await keytool(java, [
    ...['-exportcert', '-rfc', '-alias', 'broker', '-keystore', keystore],
    ...['-storepass', keystorePassword, '-file', caFile],
  ]);
  passwordFile = join(dir, 'kafka-password');
  writeFileSync(passwordFile, `${password}\n`); // as a mounted Secret made with `echo` holds it

  const tls = (listener: string): Record<string, string> => ({
    [`listener.name.${listener}.ssl.keystore.type`]: 'PKCS12',
    [`listener.name.${listener}.ssl.keystore.location`]: keystore,
    [`listener.name.${listener}.ssl.keystore.password`]: keystorePassword,
    [`listener.name.${listener}.ssl.key.password`]: keystorePassword,
  });
  const users = { admin: randomBytes(12).toString('hex'), eligo: password };
  broker = await startKafkaBroker(
    {
      cacheDir: harness.cacheDir,
      kafkaVersion: harness.kafkaVersion,
      log: () => undefined,
      env: process.env,
      keepRunning: false,
    },
    {
      listeners: [
        { name: 'SECURE', protocol: 'SASL_SSL' },
        { name: 'TLS', protocol: 'SSL' },
        { name: 'CLEARTEXT', protocol: 'SASL_PLAINTEXT' },
      ],
      settings: {
        ...tls('secure'),
        'listener.name.secure.sasl.enabled.mechanisms': 'PLAIN,SCRAM-SHA-256,SCRAM-SHA-512',
        'listener.name.secure.plain.sasl.jaas.config': plainJaas(users),
        'listener.name.secure.scram-sha-256.sasl.jaas.config': scramJaas,
        'listener.name.secure.scram-sha-512.sasl.jaas.config': scramJaas,
        ...tls('tls'),
        'listener.name.cleartext.sasl.enabled.mechanisms': 'PLAIN',
        'listener.name.cleartext.plain.sasl.jaas.config': plainJaas(users),
      },
      formatArgs: ['256', '512'].flatMap((bits) => [
        '--add-scram',
        `SCRAM-SHA-${bits}=[name=eligo,password=${password}]`,
      ]),
    },
  );
}, 300_000); // 20 s usually; a first run may resolve the broker's jars with Maven

afterAll(async () => {
  await Promise.allSettled(buses.map((bus) => bus.close()));
  await broker?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * The lines at warn level and above that Eligo's bus logged itself, by message (kafkajs's own are left out: on a
 * fresh broker it reports the group coordinator loading, which it retries).
 */
/**
 * The warnings and errors of Eligo's own code. A consumer that kafkajs restarts after a retriable error is not
 * one: a broker that has just started answers "the coordinator is loading" to the first group joins (seen with
 * Kafka 4.4), and the consumer joins again by itself.
 */
const warnings = (lines: string[]): string[] =>
  lines
    .map(
      (line) =>
        JSON.parse(line) as {
          level: string;
          msg: string;
          logger?: string;
          restart?: boolean;
          err?: { retriable?: boolean };
        },
    )
    .filter((l) => ['warn', 'error', 'fatal'].includes(l.level) && l.logger !== 'kafkajs')
    .filter((l) => !(l.msg === 'kafka consumer crashed' && l.restart === true && l.err?.retriable === true))
    .map((l) => l.msg);

/**
 * The bus Eligo builds from its ELIGO_* settings (as module/infrastructure.ts does), on a listener of the test
 * broker, with its log lines kept (also in `lines`).
 */
function busFrom(listener: string, env: Record<string, string>): { bus: KafkaEventBus; lines: string[] } {
  const config = loadConfig({
    ELIGO_KAFKA_BROKERS: broker!.addresses[listener]!,
    ELIGO_KAFKA_CLIENT_ID: 'kafka-security-test',
    ...env,
  });
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      logLines.push(chunk.toString());
      done();
    },
  });
  const bus = createKafkaEventBus({
    brokers: config.kafka.brokers!,
    clientId: config.kafka.clientId,
    groupPrefix: config.kafka.groupPrefix,
    security: config.kafka.security,
    logger: createLogger({ level: 'debug' }, sink),
    publishRetries: 1,
    sessionTimeoutMs: 6000,
    heartbeatIntervalMs: 500,
  });
  buses.push(bus);
  return { bus, lines };
}

/** Creates a topic, consumes it from its start, publishes one event and waits for it: both ways work. */
async function roundTrip(bus: KafkaEventBus): Promise<DeliveredMessage> {
  const topic = randomName('test.security.');
  await bus.ensureTopics([topic], { partitions: 1 });
  const received: DeliveredMessage[] = [];
  const subscription = await bus.subscribe({
    groupId: randomName('test.security.'),
    topics: [topic],
    fromBeginning: true,
    handler: async (m) => void received.push(m),
  });
  await bus.publish([{ topic, key: 'k-1', value: Buffer.from('eligible'), headers: { ce_type: 'test.v1' } }]);
  await waitFor('the event, consumed back', async () => received.length > 0, { timeoutMs: 30_000 });
  await subscription.stop();
  return received[0]!;
}

/** The messages, names and codes of an error and of what it wraps (kafkajs nests them). */
function describeError(err: unknown): string {
  const parts: string[] = [];
  for (let e = err as Record<string, unknown> | undefined, depth = 0; e && depth < 6; depth++) {
    parts.push(`${String(e.name)}: ${String(e.message)} (${String(e.code ?? e.type ?? '')})`);
    e = (e.cause ?? e.originalError) as Record<string, unknown> | undefined;
  }
  return parts.join(' <- ');
}

/** How `work` failed and how long it took; a bus that hangs fails the test here rather than at its timeout. */
async function refusal(work: Promise<unknown>, limitMs = 45_000): Promise<{ error: string; ms: number }> {
  const t0 = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still pending after ${limitMs} ms`)), limitMs);
  });
  try {
    await Promise.race([work, limit]);
  } catch (err) {
    return { error: describeError(err), ms: Date.now() - t0 };
  } finally {
    clearTimeout(timer);
  }
  throw new Error('the broker accepted the connection');
}

const secured = (env: Record<string, string> = {}): Record<string, string> => ({
  ELIGO_KAFKA_SSL: 'true',
  ELIGO_KAFKA_SSL_CA_FILE: caFile,
  ELIGO_KAFKA_SASL_MECHANISM: 'plain',
  ELIGO_KAFKA_SASL_USERNAME: 'eligo',
  ELIGO_KAFKA_SASL_PASSWORD_FILE: passwordFile,
  ...env,
});

describe('over SASL_SSL', () => {
  it('publishes and consumes with SASL PLAIN, the password from a file, the broker verified by the CA file', async () => {
    const { bus, lines } = busFrom('SECURE', secured());
    const message = await roundTrip(bus);
    expect(message.key).toBe('k-1');
    expect(message.value.toString()).toBe('eligible');
    expect(message.headers.ce_type).toBe('test.v1');
    expect(lines.join('')).toContain('SASL PLAIN authentication successful');
    expect(warnings(lines)).toEqual([]);
  }, 60_000);

  it('is what a starting process builds: the infrastructure passes the settings to its bus', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kafka-security-infra-'));
    const config = loadConfig({
      ELIGO_KAFKA_BROKERS: broker!.addresses.SECURE!,
      ELIGO_KAFKA_CLIENT_ID: 'kafka-security-infra',
      ELIGO_DATA_DIR: dataDir,
      ...secured(),
    });
    const infra = await startInfrastructure(config, {
      logger: createLogger({ level: 'warn' }),
      needsDb: false,
    });
    try {
      expect((await roundTrip(infra.bus as KafkaEventBus)).value.toString()).toBe('eligible');
    } finally {
      await infra.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it.each(['scram-sha-256', 'SCRAM-SHA-512'])(
    'publishes and consumes with SASL %s',
    async (mechanism) => {
      const { bus, lines } = busFrom(
        'SECURE',
        secured({
          ELIGO_KAFKA_SASL_MECHANISM: mechanism,
          ELIGO_KAFKA_SASL_PASSWORD: password,
          ELIGO_KAFKA_SASL_PASSWORD_FILE: '',
        }),
      );
      expect((await roundTrip(bus)).value.toString()).toBe('eligible');
      const bits = mechanism.slice(-3);
      expect(lines.join('')).toContain(`SASL SCRAM SHA${bits} authentication successful`);
    },
    60_000,
  );

  it('refuses a wrong password with an authentication error, at once and for every operation', async () => {
    for (const mechanism of ['plain', 'scram-sha-512']) {
      const { bus } = busFrom(
        'SECURE',
        secured({
          ELIGO_KAFKA_SASL_MECHANISM: mechanism,
          ELIGO_KAFKA_SASL_PASSWORD: wrongPassword,
          ELIGO_KAFKA_SASL_PASSWORD_FILE: '',
        }),
      );
      const topic = randomName('test.security.');
      const ensure = await refusal(bus.ensureTopics([topic]));
      expect(ensure.error).toMatch(/KafkaJSSASLAuthenticationError: SASL .* authentication failed/i);
      expect(ensure.ms).toBeLessThan(10_000);
      const publish = await refusal(bus.publish([{ topic, key: 'k', value: Buffer.from('v'), headers: {} }]));
      expect(publish.error).toMatch(/KafkaJSSASLAuthenticationError/);
      const subscribe = await refusal(
        bus.subscribe({ groupId: randomName('test.g.'), topics: [topic], handler: async () => undefined }),
      );
      expect(subscribe.error).toMatch(/KafkaJSSASLAuthenticationError/);
      expect(`${ensure.error}${publish.error}${subscribe.error}`).not.toContain(wrongPassword);
    }
  }, 60_000);

  it("refuses the broker's self-signed certificate without the CA file, and a plaintext client", async () => {
    // Node's default CAs do not know the broker's certificate: TLS verification fails (no fallback to trust).
    const withoutCa = busFrom('SECURE', secured({ ELIGO_KAFKA_SSL_CA_FILE: '' })).bus;
    // TLS off, talking to the TLS listener: the broker never answers in Kafka's protocol.
    const plaintext = busFrom(
      'SECURE',
      secured({ ELIGO_KAFKA_SSL: 'false', ELIGO_KAFKA_SSL_CA_FILE: '' }),
    ).bus;
    const [untrusted, cleartext] = await Promise.all([
      refusal(withoutCa.ensureTopics([randomName('test.security.')])),
      refusal(plaintext.ensureTopics([randomName('test.security.')])),
    ]);
    // kafkajs takes both for connection failures and retries them (5 times, about 10 s), then gives up.
    expect(untrusted.error).toMatch(
      /KafkaJSConnectionError: Connection error: self[- ]signed certificate \(DEPTH_ZERO_SELF_SIGNED_CERT\)/,
    );
    expect(cleartext.error).toMatch(/KafkaJSConnection(Closed)?Error/);
    expect(cleartext.error).not.toMatch(/SASL|authentication/i);
    for (const { ms } of [untrusted, cleartext]) expect(ms).toBeLessThan(30_000);
  }, 60_000);
});

it('publishes and consumes over TLS alone (ELIGO_KAFKA_SSL without SASL)', async () => {
  const { bus, lines } = busFrom('TLS', { ELIGO_KAFKA_SSL: 'true', ELIGO_KAFKA_SSL_CA_FILE: caFile });
  expect((await roundTrip(bus)).value.toString()).toBe('eligible');
  expect(warnings(lines)).toEqual([]);
}, 60_000);

it('allows SASL plain without TLS on a local cluster, warning once at start', async () => {
  const { bus, lines } = busFrom(
    'CLEARTEXT',
    secured({ ELIGO_KAFKA_SSL: 'false', ELIGO_KAFKA_SSL_CA_FILE: '' }),
  );
  expect((await roundTrip(bus)).value.toString()).toBe('eligible');
  expect(warnings(lines)).toEqual([expect.stringContaining('SASL plain without TLS')]);
}, 60_000);

it('never logs a password', () => {
  expect(logLines.length).toBeGreaterThan(100);
  const text = logLines.join('');
  for (const secret of secrets) expect(text).not.toContain(secret);
});
