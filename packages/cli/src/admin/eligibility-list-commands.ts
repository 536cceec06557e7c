import { existsSync } from 'node:fs';
import { Command, Option } from 'commander';
import { adminRequest, adminUpload, type AdminTarget } from './admin-client';
import { run, seg } from './cli-action';
import { importContentType } from './organization-commands';

const listPath = (programId: string) => `/programs/${seg(programId)}/eligibility-list`;

/** `eligo admin list upload|get|delete --program P`: a program's customer eligibility list. */
export function addEligibilityListCommands(admin: Command, target: (cmd: Command) => AdminTarget): void {
  const list = admin
    .command('list')
    .description("a program's customer eligibility list (stored only as keyed HMACs of its identifiers)");
  list
    .command('upload')
    .description(
      'upload a CSV (email,memberId,employeeId,firstName,lastName,birthDate: any of them) or JSON-lines ' +
        'file, streamed; it replaces the active list atomically once stored whole, a failed upload changes nothing',
    )
    .requiredOption('--program <programId>', 'the program')
    .requiredOption('--file <file>', 'rows.csv, rows.ndjson or rows.jsonl')
    .addOption(
      new Option('--format <format>', 'file format (default from the extension)').choices(['csv', 'ndjson']),
    )
    .action(
      run(async (opts: { program: string; file: string; format?: string }, cmd) => {
        const contentType = importContentType(opts.file, opts.format);
        if (!existsSync(opts.file)) throw new Error(`${opts.file} does not exist`);
        return adminUpload(target(cmd), listPath(opts.program), opts.file, contentType, 'PUT');
      }),
    );
  list
    .command('get')
    .description("the active list's counts and times (no rows)")
    .requiredOption('--program <programId>', 'the program')
    .action(
      run(async (opts: { program: string }, cmd) => adminRequest(target(cmd), 'GET', listPath(opts.program))),
    );
  list
    .command('delete')
    .description("remove the program's list: every version and row")
    .requiredOption('--program <programId>', 'the program')
    .action(
      run(async (opts: { program: string }, cmd) =>
        adminRequest(target(cmd), 'DELETE', listPath(opts.program)),
      ),
    );
}
