import fs from 'node:fs/promises';
import path from 'node:path';
import { InfraError } from './errors';
import { timed } from './log';
import { requireExecutable, runCommand } from './command';
import type { StartContext } from './types';

/** The pom that lists the broker's jars; next to src/ and dist/ alike. */
const POM = path.join(__dirname, '..', 'kafka', 'pom.xml');

export function kafkaMajor(version: string): number {
  return Number.parseInt(version.split('.')[0] ?? '0', 10);
}

/**
 * The broker's classpath for one Kafka version, resolved by Maven into <cache>/kafka/<v>/libs on first use.
 *
 * classpath.txt records exactly the jars that resolution produced, and the broker runs on that list rather
 * than on libs/*: libs may also hold jars that another resolution left there (an older pom brought a second
 * slf4j binding), and jars are only ever added to it, never replaced, because a running broker (ours, or a
 * developer's) may have it open. Maven writes into a private staging dir that is then moved in, so a run
 * interrupted halfway leaves no classpath.txt, and two harnesses resolving at once do not collide.
 */
export async function kafkaClasspath(ctx: StartContext): Promise<string[]> {
  const base = path.join(ctx.cacheDir, 'kafka', ctx.kafkaVersion);
  const libs = path.join(base, 'libs');
  const manifest = path.join(base, 'classpath.txt');
  const cached = await readManifest(manifest, libs);
  if (cached) return cached;

  const mvn = requireExecutable(
    'mvn',
    'install Maven to resolve the Kafka jars (apt-get install maven)',
    ctx.env,
  );
  await fs.mkdir(base, { recursive: true });
  const staging = await fs.mkdtemp(path.join(base, 'libs.tmp-'));
  try {
    const args = [
      '-q',
      '-B',
      '-f',
      POM,
      `-Dkafka.version=${ctx.kafkaVersion}`,
      // 4.x logs through log4j2 and needs its slf4j binding; 3.x gets reload4j (the pom's default profile).
      ...(kafkaMajor(ctx.kafkaVersion) >= 4 ? ['-Plog4j2'] : []),
      'dependency:copy-dependencies',
      `-DoutputDirectory=${staging}`,
    ];
    await timed(
      ctx.log,
      `resolve the Kafka ${ctx.kafkaVersion} jars with Maven (once; cached in ${libs})`,
      () =>
        runCommand(mvn, args, {
          env: ctx.env,
          timeoutMs: 10 * 60_000,
          logFile: path.join(base, 'mvn.log'),
        }).catch((err: Error) => {
          // Maven's first [ERROR] line names the artifact it could not find; the rest is boilerplate.
          const reason = /\[ERROR\] (.+)/.exec(err.message)?.[1] ?? err.message;
          throw new InfraError(
            `could not resolve the jars of Kafka ${ctx.kafkaVersion} (is it a published version?): ${reason} ` +
              `(full output: ${path.join(base, 'mvn.log')})`,
          );
        }),
    );
    const jars = (await fs.readdir(staging)).filter((f) => f.endsWith('.jar')).sort();
    if (!jars.some((j) => j.startsWith('kafka_2.13-'))) {
      throw new InfraError(
        `Maven resolved no kafka_2.13 jar for Kafka ${ctx.kafkaVersion} (see ${base}/mvn.log)`,
      );
    }
    await fs.mkdir(libs, { recursive: true });
    for (const jar of jars) {
      await fs
        .rename(path.join(staging, jar), path.join(libs, jar))
        .catch(async (err: NodeJS.ErrnoException) => {
          // A jar of the same name is already there (same artifact and version): keep it, it may be in use.
          if (!(await exists(path.join(libs, jar)))) throw err;
        });
    }
    const tmp = `${manifest}.${process.pid}`;
    await fs.writeFile(tmp, `${jars.join('\n')}\n`);
    await fs.rename(tmp, manifest);
    return jars.map((j) => path.join(libs, j));
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}

async function readManifest(manifest: string, libs: string): Promise<string[] | undefined> {
  let text: string;
  try {
    text = await fs.readFile(manifest, 'utf8');
  } catch {
    return undefined;
  }
  const jars = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((j) => path.join(libs, j));
  for (const jar of jars) if (!(await exists(jar))) return undefined; // a jar was deleted: resolve again
  return jars.length > 0 ? jars : undefined;
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
