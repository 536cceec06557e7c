import { Option, type Command } from 'commander';
import { adminRequest, type AdminTarget } from './admin-client';
import { run } from './cli-action';

const MODES = ['test', 'live'];

/**
 * Every page of an admin list paged by cursor (limit 100, following nextCursor), as one array of `key`.
 * `filters` go with every page, as the lists ask.
 */
export async function allPages(
  target: AdminTarget,
  path: string,
  key: string,
  filters: Record<string, string | undefined> = {},
): Promise<unknown[]> {
  const rows: unknown[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: '100' });
    for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value);
    if (cursor) query.set('cursor', cursor);
    const page = (await adminRequest(target, 'GET', `${path}?${query.toString()}`)) as Record<
      string,
      unknown
    > & { nextCursor: string | null };
    rows.push(...(page[key] as unknown[]));
    cursor = page.nextCursor;
  } while (cursor);
  return rows;
}

/**
 * `eligo admin account list` and `eligo admin program list` (also `accounts list`, `programs list`): the
 * staff console's lists from a shell, every page, newest first.
 */
export function addListCommands(
  groups: { account: Command; program: Command },
  target: (cmd: Command) => AdminTarget,
): void {
  groups.account
    .command('list')
    .description('every account with its numbers of live tokens and programs, newest first (all pages)')
    .option('--name <text>', 'only accounts whose name contains this (ignoring case)')
    .action(
      run(async (opts: { name?: string }, cmd: Command) => ({
        accounts: await allPages(target(cmd), '/accounts', 'accounts', { name: opts.name }),
      })),
    );

  groups.program
    .command('list')
    .description('programs of every account, or of one, newest first (all pages)')
    .option('--account <accountId>', "only this account's programs")
    .option('--segment <segment>', 'only programs of this segment, e.g. student')
    .addOption(new Option('--mode <mode>', 'only programs in this mode').choices(MODES))
    .option('--name <text>', 'only programs whose name contains this (ignoring case)')
    .action(
      run(
        async (opts: { account?: string; segment?: string; mode?: string; name?: string }, cmd: Command) => ({
          programs: await allPages(target(cmd), '/programs', 'programs', {
            accountId: opts.account,
            segment: opts.segment,
            mode: opts.mode,
            name: opts.name,
          }),
        }),
      ),
    );
}
