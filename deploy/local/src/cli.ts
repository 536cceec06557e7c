#!/usr/bin/env node
import { parseServices } from './config';
import { down, infraStatus, up, type StatusEntry } from './commands';
import { ensureChromium } from './chromium';
import { InfraError } from './errors';
import { formatMs, stderrLog } from './log';
import { ensureHelm } from './helm';
import { ensurePythonTools } from './python-tools';
import { SERVICE_NAMES, type ServiceName } from './types';

const USAGE = `usage: npm run infra -- <up|down|status> [options]

  up       start the servers that are missing (in the background), print their environment
  down     stop the servers that up started and remove their data
  status   show what runs and whether it answers
  python-tools
           install the pinned Python test tools (Schemathesis, standardwebhooks, hadolint, kubernetes-validate)
           once, print their interpreter
  helm     build the pinned Helm (go install, once), print its path
  chromium install Debian's chromium (apt-get, once, as root), print its path and version

options:
  --only postgres,kafka,minio   which servers (default: all)
  --kafka-version X.Y.Z         Kafka version for up (default: $ELIGO_KAFKA_VERSION, else 3.9.2)
  --json                        print JSON instead of shell lines

Servers given by ELIGO_TEST_DATABASE_URL, ELIGO_TEST_KAFKA_BROKERS or ELIGO_TEST_S3_ENDPOINT are used as they
are. Cache: $ELIGO_CACHE_DIR, else ~/.cache/eligo. ELIGO_INFRA_CONTAINERS=off skips Testcontainers.`;

interface Args {
  command: string;
  only: ServiceName[];
  kafkaVersion?: string;
  json: boolean;
  lease?: number;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { command: '', only: [...SERVICE_NAMES], json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s) : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v.startsWith('--')) throw new InfraError(`${flag} needs a value\n\n${USAGE}`);
      return v;
    };
    switch (flag) {
      case '--only':
        args.only = parseServices(value());
        break;
      case '--kafka-version':
        args.kafkaVersion = value();
        break;
      case '--json':
        args.json = true;
        break;
      case '--lease': // internal: the jest global setup/teardown pass the jest process's pid
        args.lease = Number.parseInt(value(), 10);
        break;
      case '-h':
      case '--help':
        args.command = 'help';
        break;
      default:
        if (flag?.startsWith('-') || args.command)
          throw new InfraError(`unexpected argument "${arg}"\n\n${USAGE}`);
        args.command = flag ?? '';
    }
  }
  return args;
}

/** Single-quoted for POSIX shells, so that `eval "$(npm run -s infra -- up)"` takes any value. */
function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function statusLine(e: StatusEntry): string {
  const where = Object.values(e.env)[0]?.replace(/\/\/[^@/]*@/, '//') ?? '';
  const how =
    e.pid !== undefined ? `pid ${e.pid}` : e.containerId ? `container ${e.containerId.slice(0, 12)}` : e.via;
  const owner = e.via === 'environment' ? '' : e.ephemeral ? 'for test runs' : 'kept until down';
  const extra = [e.version ? `Kafka ${e.version}` : '', owner, e.log ? `log ${e.log}` : ''].filter(Boolean);
  return `${e.service.padEnd(9)}${(e.answers ? 'answers' : 'DOWN').padEnd(9)}${where}  (${[how, ...extra].join(', ')})`;
}

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const started = Date.now();
  const common = { only: args.only, env: process.env, log: stderrLog };
  switch (args.command) {
    case 'up': {
      const result = await up({
        ...common,
        ...(args.kafkaVersion ? { kafkaVersion: args.kafkaVersion } : {}),
        ...(args.lease !== undefined ? { lease: args.lease } : {}),
      });
      stderrLog(`up in ${formatMs(Date.now() - started)}`);
      if (args.json) process.stdout.write(`${JSON.stringify(result)}\n`);
      else
        for (const [k, v] of Object.entries(result.env))
          process.stdout.write(`export ${k}=${shellQuote(v)}\n`);
      return 0;
    }
    case 'down': {
      const only = argv.some((a) => a.startsWith('--only')) ? args.only : undefined;
      const stopped = await down({
        ...common,
        ...(only ? { only } : {}),
        ...(args.lease !== undefined ? { lease: args.lease } : {}),
      });
      stderrLog(`down in ${formatMs(Date.now() - started)}`);
      if (args.json) process.stdout.write(`${JSON.stringify({ stopped })}\n`);
      return 0;
    }
    case 'status': {
      const entries = await infraStatus({ env: process.env, only: args.only });
      if (args.json) process.stdout.write(`${JSON.stringify(entries)}\n`);
      else if (entries.length === 0) process.stdout.write('nothing is up (npm run infra -- up)\n');
      else for (const e of entries) process.stdout.write(`${statusLine(e)}\n`);
      return entries.every((e) => e.answers) ? 0 : 1;
    }
    case 'python-tools': {
      const tools = await ensurePythonTools(process.env, stderrLog);
      process.stdout.write(args.json ? `${JSON.stringify(tools)}\n` : `${tools.python}\n`);
      return 0;
    }
    case 'helm': {
      const helm = await ensureHelm(process.env, stderrLog);
      process.stdout.write(args.json ? `${JSON.stringify({ helm })}\n` : `${helm}\n`);
      return 0;
    }
    case 'chromium': {
      const chromium = await ensureChromium({ env: process.env, log: stderrLog });
      process.stdout.write(
        args.json ? `${JSON.stringify(chromium)}\n` : `${chromium.path}\n${chromium.version}\n`,
      );
      return 0;
    }
    case 'help':
      process.stdout.write(`${USAGE}\n`);
      return 0;
    default:
      throw new InfraError(args.command ? `unknown command "${args.command}"\n\n${USAGE}` : USAGE);
  }
}

// A signal during `up` must still run the 'exit' hooks that kill half-started servers and release the lock.
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof InfraError) stderrLog(`error: ${err.message}`);
    else stderrLog(`error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  },
);
