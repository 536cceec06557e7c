#!/usr/bin/env node
// The `eligo` command: start (any --target), migrate, infra, admin. The only place besides services' main.ts that
// reads process.env; everything below receives parsed config.
import { stopTracing } from './tracing-start'; // first: see tracing-start.ts
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { Command } from 'commander';
import { runMigrations, runProcess } from '@eligo/runtime';
import { adminCommand } from './admin/commands';
import { allModules } from './modules';
import { version } from '../package.json';

const program = new Command()
  .name('eligo')
  .description('Eligo identity eligibility verification service')
  .version(version)
  .showHelpAfterError();

program
  .command('start')
  .description('start the modules named by --target on one HTTP and one gRPC server')
  .option('-t, --target <modules>', `"all" or a comma list: ${Object.keys(allModules).join(',')}`, 'all')
  .option('--print-config', 'print the effective configuration (secrets masked) and exit')
  .action(async (opts: { target: string; printConfig?: boolean }) => {
    await runProcess({
      env: process.env,
      target: opts.target,
      modules: allModules,
      completeRegistry: true,
      version,
      printConfig: opts.printConfig,
      ...(stopTracing ? { beforeExit: stopTracing } : {}),
    });
  });

program
  .command('migrate')
  .description('apply the database migrations of the --target modules, then exit')
  .option('-t, --target <modules>', '"all" or a comma list', 'all')
  .action(async (opts: { target: string }) => {
    process.exitCode = await runMigrations({
      env: process.env,
      target: opts.target,
      modules: allModules,
      version,
    });
  });

program
  .command('infra')
  .description('local Postgres, Kafka and MinIO for development and tests: up | down | status')
  .argument('<action>', 'up, down or status')
  .allowUnknownOption()
  .helpOption(false)
  .action(async (_action: string, _opts: unknown, cmd: Command) => {
    // The harness is its own small program (also run by `npm run infra` and the jest global setup).
    const cli = join(dirname(require.resolve('@eligo/local-infra/package.json')), 'dist', 'cli.js');
    const child = spawnSync(process.execPath, [cli, ...cmd.args], { stdio: 'inherit' });
    process.exitCode = child.status ?? 1;
  });

program.addCommand(adminCommand(process.env));

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`eligo: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
