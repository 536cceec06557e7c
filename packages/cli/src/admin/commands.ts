import { Command, Option } from 'commander';
import { adminRequest, resolveAdminTarget, type AdminTarget } from './admin-client';
import { readJsonObject, run, seg } from './cli-action';
import { addOrganizationCommands } from './organization-commands';
import { addEligibilityListCommands } from './eligibility-list-commands';
import { addListCommands } from './list-commands';
import { addParkedEventCommands } from './parked-event-commands';
import { addStaffCommands } from './staff-commands';
import { readCodeBatches } from './reward-codes-file';

/** Codes per request: well under the API's 10000-per-call limit and the default 1 MB body limit. */
const REWARD_CODE_BATCH = 5000;
const ROLES = ['REPORTER', 'PII', 'BULK_VERIFIER'];

/**
 * `eligo admin ...`: the operator API (/rest/admin/v1) from a shell. Every command prints the JSON reply on
 * stdout; an error reply is printed on stderr with exit code 1.
 */
export function adminCommand(env: Record<string, string | undefined>): Command {
  const admin = new Command('admin')
    .description(
      'operator API: accounts, access tokens, programs, reward codes, organizations, parked events, staff, ' +
        'audit (prints JSON)',
    )
    .option(
      '--url <baseUrl>',
      'service base URL (default ELIGO_ADMIN_URL, ELIGO_PUBLIC_BASE_URL or localhost)',
    )
    .option('--token <token>', 'operator token (default ELIGO_ADMIN_TOKEN or <ELIGO_DATA_DIR>/admin-token)');
  const target = (cmd: Command): AdminTarget =>
    resolveAdminTarget(cmd.optsWithGlobals<{ url?: string; token?: string }>(), env);

  const account = admin.command('account').alias('accounts').description('accounts');
  account
    .command('create')
    .requiredOption('--name <name>', 'account name')
    .action(run(async (opts: { name: string }, cmd) => adminRequest(target(cmd), 'POST', '/accounts', opts)));

  const token = admin.command('token').description('access tokens (shown once)');
  token
    .command('create')
    .requiredOption('--account <accountId>', 'account id')
    .requiredOption('--name <name>', 'token name')
    .addOption(new Option('--role <role...>', 'roles').choices(ROLES))
    .action(
      run(async (opts: { account: string; name: string; role?: string[] }, cmd) =>
        adminRequest(target(cmd), 'POST', `/accounts/${seg(opts.account)}/tokens`, {
          name: opts.name,
          ...(opts.role ? { roles: opts.role } : {}),
        }),
      ),
    );
  token
    .command('revoke')
    .requiredOption('--account <accountId>', 'account id')
    .requiredOption('--token-id <tokenId>', 'token id')
    .action(
      run(async (opts: { account: string; tokenId: string }, cmd) => {
        await adminRequest(
          target(cmd),
          'DELETE',
          `/accounts/${seg(opts.account)}/tokens/${seg(opts.tokenId)}`,
        );
        return { revoked: opts.tokenId };
      }),
    );

  const program = admin.command('program').alias('programs').description('programs');
  program
    .command('create')
    .description('create a program from flags and/or a JSON file of its configuration (flags win)')
    .option('--account <accountId>', 'account id')
    .option('--name <name>', 'program name')
    .option('--segment <segment>', 'segment, e.g. student')
    .option('--file <path>', 'JSON file with more configuration (offerType, rewardCode, countries, ...)')
    .action(
      run(async (opts: { account?: string; name?: string; segment?: string; file?: string }, cmd) => {
        const body = {
          ...(opts.file ? readJsonObject(opts.file) : {}),
          ...(opts.account ? { accountId: opts.account } : {}),
          ...(opts.name ? { name: opts.name } : {}),
          ...(opts.segment ? { segment: opts.segment } : {}),
        };
        return adminRequest(target(cmd), 'POST', '/programs', body);
      }),
    );
  program
    .command('get')
    .argument('<programId>')
    .action(run(async (id: string, _opts, cmd) => adminRequest(target(cmd), 'GET', `/programs/${seg(id)}`)));
  program
    .command('update')
    .description('change the fields of a JSON merge-patch file (null clears a field)')
    .argument('<programId>')
    .requiredOption('--file <path>', 'JSON file with the fields to change')
    .action(
      run(async (id: string, opts: { file: string }, cmd) =>
        adminRequest(target(cmd), 'PATCH', `/programs/${seg(id)}`, readJsonObject(opts.file)),
      ),
    );

  admin
    .command('reward-codes')
    .description('reward-code pools')
    .command('add')
    .description("add the codes of a file (one per line) to a program's pool, in batches")
    .argument('<programId>')
    .argument('<file>')
    .action(
      run(async (id: string, file: string, _opts, cmd) => {
        let added = 0;
        let remaining = 0;
        for await (const codes of readCodeBatches(file, REWARD_CODE_BATCH)) {
          const reply = (await adminRequest(target(cmd), 'POST', `/programs/${seg(id)}/rewardCodes`, {
            codes,
          })) as { added: number; remaining: number };
          added += reply.added;
          remaining = reply.remaining;
        }
        return { added, remaining };
      }),
    );
  addListCommands({ account, program }, target);
  addOrganizationCommands(admin, target);
  addEligibilityListCommands(admin, target);
  addParkedEventCommands(admin, target);
  addStaffCommands(admin, target);
  return admin;
}
