import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { ENV } from './config';
import { findJava } from './java';
import { kafkaClasspath, kafkaMajor } from './kafka-jars';
import { timed } from './log';
import { freePort } from './ports';
import { runCommand } from './command';
import { spawnDetached, stopProcess, type Spawned } from './process';
import type { ServiceRecord, StartContext } from './types';
import { waitUntilReady } from './wait';

/**
 * Settings of a single-node KRaft cluster, shared by the local process and the container (which add their
 * listeners). Topics are never auto-created (services create theirs, as in production), and everything
 * internal has one replica.
 */
export const CLUSTER_SETTINGS: Readonly<Record<string, string>> = {
  'process.roles': 'broker,controller',
  'node.id': '1',
  'controller.listener.names': 'CONTROLLER',
  'auto.create.topics.enable': 'false',
  'num.partitions': '1',
  'default.replication.factor': '1',
  'min.insync.replicas': '1',
  'offsets.topic.replication.factor': '1',
  // Fewer partitions than the default 50: the first consumer group of a run waits for them all to load.
  'offsets.topic.num.partitions': '4',
  'transaction.state.log.replication.factor': '1',
  'transaction.state.log.min.isr': '1',
  'transaction.state.log.num.partitions': '4',
  'share.coordinator.state.topic.replication.factor': '1',
  'share.coordinator.state.topic.min.isr': '1',
  // Consumers in tests join one at a time; do not hold the first rebalance for 3 s.
  'group.initial.rebalance.delay.ms': '0',
};

/** A Kafka cluster id: 16 random bytes in URL-safe base64, as `kafka-storage random-uuid` prints. */
function clusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id; // Kafka avoids these too: they read as a command-line flag
  }
}

function properties(settings: Record<string, string>): string {
  return Object.entries(settings)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
}

/** WARN and above to <dir>/broker.log, in whichever logging backend the version uses (see kafka/pom.xml). */
async function writeLogConfig(dir: string, brokerLog: string): Promise<string[]> {
  const log4j = path.join(dir, 'log4j.properties');
  await fs.writeFile(
    log4j,
    [
      'log4j.rootLogger=WARN, file',
      'log4j.appender.file=org.apache.log4j.FileAppender',
      `log4j.appender.file.File=${brokerLog}`,
      'log4j.appender.file.layout=org.apache.log4j.PatternLayout',
      'log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n',
      '',
    ].join('\n'),
  );
  const log4j2 = path.join(dir, 'log4j2.properties');
  await fs.writeFile(
    log4j2,
    [
      'status = warn',
      'appender.file.type = File',
      'appender.file.name = file',
      `appender.file.fileName = ${brokerLog}`,
      'appender.file.layout.type = PatternLayout',
      'appender.file.layout.pattern = [%d] %p %m (%c)%n',
      'rootLogger.level = warn',
      'rootLogger.appenderRef.file.ref = file',
      '',
    ].join('\n'),
  );
  return [`-Dlog4j.configuration=file:${log4j}`, `-Dlog4j2.configurationFile=${log4j2}`];
}

export async function startLocalKafka(ctx: StartContext): Promise<ServiceRecord> {
  return (await startKafkaBroker(ctx)).record;
}

/** A listener besides the PLAINTEXT (clients and inter-broker) and CONTROLLER ones, on a free 127.0.0.1 port. */
export interface KafkaListener {
  /** Upper case; its own settings are `listener.name.<name in lower case>.*` (see KafkaBrokerOptions). */
  name: string;
  protocol: 'PLAINTEXT' | 'SSL' | 'SASL_PLAINTEXT' | 'SASL_SSL';
}

/** What a test may add to the harness's broker (the shared `infra up` broker takes none of it). */
export interface KafkaBrokerOptions {
  listeners?: readonly KafkaListener[];
  /** Broker properties, written after the harness's own: the extra listeners' TLS keystores and SASL JAAS. */
  settings?: Readonly<Record<string, string>>;
  /** More arguments of the storage format, e.g. `--add-scram`, `SCRAM-SHA-256=[name=u,password=p]`. */
  formatArgs?: readonly string[];
}

export interface KafkaBroker {
  record: ServiceRecord;
  /** `127.0.0.1:<port>` of each listener by name, PLAINTEXT included. */
  addresses: Record<string, string>;
  /** Stops the broker and removes its directory (data, config and logs). */
  stop(): Promise<void>;
}

/**
 * A single-node KRaft broker as a local process: a PLAINTEXT listener (which the readiness probe uses, and
 * brokers talk to each other on), the controller's, and any extra ones of `options`.
 */
export async function startKafkaBroker(
  ctx: StartContext,
  options: KafkaBrokerOptions = {},
): Promise<KafkaBroker> {
  const version = ctx.kafkaVersion;
  // Kafka 4 brokers need Java 17; 3.9 still runs on 11.
  const java = await findJava(ctx.env, kafkaMajor(version) >= 4 ? 17 : 11);
  const classpath = (await kafkaClasspath(ctx)).join(path.delimiter);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'eligo-kafka-'));
  let spawned: Spawned | undefined;
  try {
    const brokerPort = await freePort();
    const controllerPort = await freePort();
    const extra: { listener: KafkaListener; port: number }[] = [];
    for (const listener of options.listeners ?? []) extra.push({ listener, port: await freePort() });
    const endpoints = (listeners: { name: string; port: number }[]): string =>
      listeners.map(({ name, port }) => `${name}://127.0.0.1:${port}`).join(',');
    const clientListeners = [
      { name: 'PLAINTEXT', port: brokerPort },
      ...extra.map(({ listener, port }) => ({ name: listener.name, port })),
    ];
    const serverProperties = path.join(dir, 'server.properties');
    const settings = {
      ...CLUSTER_SETTINGS,
      'controller.quorum.voters': `1@127.0.0.1:${controllerPort}`,
      listeners: endpoints([...clientListeners, { name: 'CONTROLLER', port: controllerPort }]),
      'advertised.listeners': endpoints(clientListeners),
      'inter.broker.listener.name': 'PLAINTEXT',
      'listener.security.protocol.map': [
        'CONTROLLER:PLAINTEXT',
        'PLAINTEXT:PLAINTEXT',
        ...extra.map(({ listener }) => `${listener.name}:${listener.protocol}`),
      ].join(','),
      'log.dirs': path.join(dir, 'data'),
      ...options.settings,
    };
    // Extra settings may hold passwords (a test's JAAS users): then readable by this user only.
    await fs.writeFile(
      serverProperties,
      `${properties(settings)}\n`,
      options.settings ? { mode: 0o600 } : undefined,
    );
    const brokerLog = path.join(dir, 'broker.log');
    const jvm = [
      '-Djava.awt.headless=true',
      `-Dkafka.logs.dir=${dir}`,
      ...(await writeLogConfig(dir, brokerLog)),
    ];
    const env = ctx.env;

    await timed(ctx.log, 'format the KRaft storage', () =>
      runCommand(
        java,
        [
          '-Xmx256m',
          ...jvm,
          '-cp',
          classpath,
          'kafka.tools.StorageTool',
          'format',
          '-t',
          clusterId(),
          '-c',
          serverProperties,
          ...(options.formatArgs ?? []),
        ],
        { cwd: dir, env, timeoutMs: 120_000, logFile: path.join(dir, 'format.log') },
      ),
    );

    const outFile = path.join(dir, 'kafka.out');
    const brokers = `127.0.0.1:${brokerPort}`;
    await timed(ctx.log, `start Kafka ${version} on ${brokers} (controller :${controllerPort})`, async () => {
      spawned = spawnDetached({
        command: java,
        args: ['-Xms128m', '-Xmx512m', ...jvm, '-cp', classpath, 'kafka.Kafka', serverProperties],
        cwd: dir,
        env,
        logFile: outFile,
        dir,
      });
      const proc = spawned;
      await waitUntilReady(`Kafka ${version}`, () => kafkaAnswers(brokers), {
        timeoutMs: 120_000,
        intervalMs: 500,
        process: proc,
        // The JVM's own output (a class not found, out of memory) goes to kafka.out, the broker's to broker.log.
        logFiles: [brokerLog, outFile],
      });
    });
    const record: ServiceRecord = {
      service: 'kafka',
      via: 'process',
      env: { [ENV.kafkaBrokers]: brokers, [ENV.kafkaVersion]: version },
      ports: {
        broker: brokerPort,
        controller: controllerPort,
        ...Object.fromEntries(extra.map(({ listener, port }) => [listener.name.toLowerCase(), port])),
      },
      version,
      pid: spawned?.pid,
      pidStart: spawned?.pidStart,
      stopSignal: 'SIGTERM',
      dir,
      log: brokerLog,
      startedAt: new Date().toISOString(),
    };
    return {
      record,
      addresses: Object.fromEntries(clientListeners.map(({ name, port }) => [name, `127.0.0.1:${port}`])),
      stop: async () => {
        await stopProcess(record);
        await fs.rm(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    if (spawned) await stopProcess(spawned);
    await fs.rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Whether an admin client can connect and fetch the topic list (metadata), which is what the suites need. */
export async function kafkaAnswers(brokers: string): Promise<boolean> {
  const kafka = new Kafka({
    clientId: 'eligo-infra-probe',
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
    connectionTimeout: 2_000,
    requestTimeout: 5_000,
    retry: { retries: 0 },
  });
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.listTopics();
    return true;
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
