import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { InfraError } from './errors';
import { own, release, signalGroup } from './process';

/** Running the tools the harness needs (mvn, go, java, initdb): finding them, and running them to completion. */

export function findExecutable(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here; keep looking
    }
  }
  return undefined;
}

/** The executable's path, or an error that names it and says how to install it. */
export function requireExecutable(
  name: string,
  installHint: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const found = findExecutable(name, env);
  if (!found) throw new InfraError(`${name} not found: ${installHint}`);
  return found;
}

export interface RunSpec {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Output is appended here as it comes (long builds), besides being kept for the error message. */
  logFile?: string;
  uid?: number;
  gid?: number;
}

/**
 * Runs a command to completion (mvn, go install, StorageTool, initdb). It gets its own process group so that
 * a timeout kills its children too (go spawns compilers, mvn a JVM); an error quotes the end of its output.
 */
export function runCommand(command: string, args: string[], spec: RunSpec): Promise<string> {
  return new Promise((resolve, reject) => {
    const logStream = spec.logFile ? fs.createWriteStream(spec.logFile, { flags: 'a' }) : undefined;
    const child = spawn(command, args, {
      cwd: spec.cwd,
      env: spec.env ?? process.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(spec.uid !== undefined ? { uid: spec.uid } : {}),
      ...(spec.gid !== undefined ? { gid: spec.gid } : {}),
    });
    if (child.pid !== undefined) own(child.pid, undefined);
    let output = '';
    const collect = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (output.length > 200_000) output = output.slice(-100_000);
      logStream?.write(chunk);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
    }, spec.timeoutMs);
    const finish = (err: Error | undefined): void => {
      clearTimeout(timer);
      if (child.pid !== undefined) release(child.pid);
      logStream?.end();
      if (err) reject(err);
      else resolve(output);
    };
    child.on('error', (err) => finish(new InfraError(`could not run ${command}: ${err.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) return finish(undefined);
      const why = timedOut ? `timed out after ${spec.timeoutMs / 1000}s` : `exited with ${code ?? signal}`;
      finish(new InfraError(`${path.basename(command)} ${args.join(' ')} ${why}:\n${tail(output, 30)}`));
    });
  });
}

export function tail(text: string, lines: number): string {
  // Without colour codes (mvn prints them even with -B).
  const plain = text.replace(/\x1b\[[0-9;]*m/g, '');
  return plain.trimEnd().split('\n').slice(-lines).join('\n');
}

export function tailFile(file: string, lines = 30): string {
  try {
    return tail(fs.readFileSync(file, 'utf8'), lines);
  } catch {
    return '(no log)';
  }
}
