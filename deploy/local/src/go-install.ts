import fs from 'node:fs/promises';
import path from 'node:path';
import { InfraError } from './errors';
import { formatMs, timed, type Log } from './log';
import { requireExecutable, runCommand } from './command';

export interface GoTool {
  /** What the tool is called in logs and errors ("MinIO"). */
  name: string;
  /** The package to install and its pinned version (`helm.sh/helm/v3/cmd/helm@v3.22.0`). */
  target: string;
  /** The binary's name, in GOBIN. */
  binary: string;
  /** Extra `go install` flags (`-ldflags=...`). */
  flags?: string[];
  /** How long the first build takes, for the log line ("about 3 minutes"). */
  takes: string;
}

/**
 * `<dir>/<binary>`, built on first use with `go install` from the Go module proxy (the tools' release
 * binaries are out of reach of this project's machines). go install writes into a private GOBIN that is then
 * moved into place, so an interrupted build leaves nothing that looks finished and two builds at once do not
 * collide (the second rename replaces the first's identical binary).
 */
export async function goInstalled(
  tool: GoTool,
  dir: string,
  ctx: { env: NodeJS.ProcessEnv; log: Log },
): Promise<string> {
  const binary = path.join(dir, tool.binary);
  if (await isExecutable(binary)) return binary;

  const go = requireExecutable(
    'go',
    `install Go (https://go.dev/doc/install) to build ${tool.name}`,
    ctx.env,
  );
  await fs.mkdir(dir, { recursive: true });
  const gobin = await fs.mkdtemp(path.join(dir, 'gobin.tmp-'));
  const started = Date.now();
  // A first build compiles a large module: say that it is expected to take a while, and that it is alive.
  const heartbeat = setInterval(
    () => ctx.log(`still building ${tool.name} (${formatMs(Date.now() - started)})`),
    30_000,
  );
  try {
    await timed(
      ctx.log,
      `build ${tool.name} (${tool.target}) with go install (once; takes ${tool.takes})`,
      () =>
        runCommand(go, ['install', ...(tool.flags ?? []), tool.target], {
          env: { ...ctx.env, GOBIN: gobin },
          timeoutMs: 30 * 60_000,
          logFile: path.join(dir, 'build.log'),
        }).catch((err: Error) => {
          throw new InfraError(`could not build ${tool.name} with go install: ${err.message}`);
        }),
    );
    await fs.rename(path.join(gobin, tool.binary), binary);
    return binary;
  } finally {
    clearInterval(heartbeat);
    await fs.rm(gobin, { recursive: true, force: true });
  }
}

async function isExecutable(file: string): Promise<boolean> {
  return fs.access(file, fs.constants.X_OK).then(
    () => true,
    () => false,
  );
}
