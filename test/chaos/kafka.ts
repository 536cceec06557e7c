import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
// The harness's own pieces (no public entry for them): the cluster settings, the cached jars and the Java it uses.
import { runCommand } from '@eligo/local-infra/dist/command';
import { cacheDirFrom, DEFAULT_KAFKA_VERSION } from '@eligo/local-infra/dist/config';
import { findJava } from '@eligo/local-infra/dist/java';
import { CLUSTER_SETTINGS, kafkaAnswers } from '@eligo/local-infra/dist/kafka';
import { kafkaClasspath, kafkaMajor } from '@eligo/local-infra/dist/kafka-jars';
import { freePorts } from './ports';

/**
 * A single-node KRaft broker of the chaos run's own (the harness's Kafka is shared with other suites and must
 * not be killed), started like the harness starts its local one, on fixed ports and a fixed data dir so that
 * it can be SIGKILLed and started again as the same broker with its data.
 */
export interface ChaosKafka {
  brokers: string;
  /** SIGKILL, then waits for the JVM to exit. */
  kill(): Promise<void>;
  /** Starts the broker again on the same ports and data; resolves with the ms until it answers metadata. */
  start(timeoutMs?: number): Promise<number>;
  /** Stops it for good and removes its data. */
  destroy(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startChaosKafka(dir: string): Promise<ChaosKafka> {
  const version = process.env.ELIGO_TEST_KAFKA_VERSION || DEFAULT_KAFKA_VERSION;
  const ctx = {
    cacheDir: cacheDirFrom(process.env),
    kafkaVersion: version,
    log: (line: string) => process.stderr.write(`[chaos kafka] ${line}\n`),
    env: process.env,
    keepRunning: false,
  };
  const java = await findJava(process.env, kafkaMajor(version) >= 4 ? 17 : 11);
  const classpath = (await kafkaClasspath(ctx)).join(path.delimiter);
  fs.mkdirSync(dir, { recursive: true });
  const [brokerPort, controllerPort] = (await freePorts(2)) as [number, number];
  const brokers = `127.0.0.1:${brokerPort}`;
  const serverProperties = path.join(dir, 'server.properties');
  const settings: Record<string, string> = {
    ...CLUSTER_SETTINGS,
    'controller.quorum.voters': `1@127.0.0.1:${controllerPort}`,
    listeners: `PLAINTEXT://127.0.0.1:${brokerPort},CONTROLLER://127.0.0.1:${controllerPort}`,
    'advertised.listeners': `PLAINTEXT://127.0.0.1:${brokerPort}`,
    'inter.broker.listener.name': 'PLAINTEXT',
    'listener.security.protocol.map': 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    'log.dirs': path.join(dir, 'data'),
  };
  fs.writeFileSync(
    serverProperties,
    `${Object.entries(settings)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n')}\n`,
  );
  const brokerLog = path.join(dir, 'broker.log');
  const log4j = path.join(dir, 'log4j.properties');
  fs.writeFileSync(
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
  fs.writeFileSync(
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
  const jvm = [
    '-Djava.awt.headless=true',
    `-Dkafka.logs.dir=${dir}`,
    `-Dlog4j.configuration=file:${log4j}`,
    `-Dlog4j2.configurationFile=${log4j2}`,
  ];
  let clusterId = randomBytes(16).toString('base64url');
  while (clusterId.startsWith('-')) clusterId = randomBytes(16).toString('base64url');
  await runCommand(
    java,
    [
      '-Xmx256m',
      ...jvm,
      '-cp',
      classpath,
      'kafka.tools.StorageTool',
      'format',
      '-t',
      clusterId,
      '-c',
      serverProperties,
    ],
    { cwd: dir, env: process.env, timeoutMs: 120_000, logFile: path.join(dir, 'format.log') },
  );

  let child: ChildProcess | undefined;
  const onExit = () => child?.kill('SIGKILL');
  process.on('exit', onExit);

  const spawnBroker = () => {
    const out = fs.openSync(path.join(dir, 'kafka.out'), 'a');
    try {
      child = spawn(
        java,
        ['-Xms128m', '-Xmx512m', ...jvm, '-cp', classpath, 'kafka.Kafka', serverProperties],
        {
          cwd: dir,
          env: process.env,
          stdio: ['ignore', out, out],
        },
      );
      child.on('error', () => undefined);
    } finally {
      fs.closeSync(out);
    }
  };

  const kill = async () => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise<void>((r) => c.once('exit', () => r()));
    c.kill('SIGKILL');
    await exited;
  };

  const start = async (timeoutMs = 120_000) => {
    const t0 = Date.now();
    spawnBroker();
    const c = child!;
    while (!(await kafkaAnswers(brokers))) {
      if (c.exitCode !== null || c.signalCode !== null) {
        const tail = (file: string) => {
          try {
            return fs.readFileSync(file, 'utf8').split('\n').slice(-15).join('\n');
          } catch {
            return '';
          }
        };
        throw new Error(
          `Kafka exited (${c.exitCode ?? c.signalCode}) before answering:\n${tail(brokerLog)}\n${tail(path.join(dir, 'kafka.out'))}`,
        );
      }
      if (Date.now() - t0 > timeoutMs) throw new Error(`Kafka not answering after ${timeoutMs} ms`);
      await sleep(100);
    }
    return Date.now() - t0;
  };

  await start();
  return {
    brokers,
    kill,
    start,
    destroy: async () => {
      await kill();
      process.off('exit', onExit);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
