import path from 'node:path';
import { InfraError } from './errors';
import { findExecutable, runCommand } from './command';

const INSTALL_HINT = 'install a JDK 17 (apt-get install openjdk-17-jre-headless)';

/** The java to run Kafka with: $JAVA_HOME/bin/java if set, else the one on PATH. */
export async function findJava(env: NodeJS.ProcessEnv, minMajor: number): Promise<string> {
  const java = env.JAVA_HOME ? path.join(env.JAVA_HOME, 'bin', 'java') : findExecutable('java', env);
  if (!java) throw new InfraError(`java not found: ${INSTALL_HINT}`);
  // `java -version` prints e.g. `openjdk version "17.0.15" 2025-04-15` (or "1.8.0_392" for Java 8) on stderr.
  const out = await runCommand(java, ['-version'], { env, timeoutMs: 30_000 }).catch((err: Error) => {
    throw new InfraError(`${java} does not run (${err.message}): ${INSTALL_HINT}`);
  });
  const match = /version "(\d+)(?:\.(\d+))?/.exec(out);
  const major = match ? (match[1] === '1' ? Number(match[2]) : Number(match[1])) : 0;
  if (major < minMajor) {
    throw new InfraError(
      `${java} is Java ${major || '(unknown version)'}, Kafka needs ${minMajor}+: ${INSTALL_HINT}`,
    );
  }
  return java;
}
