import { Command, Option } from 'commander';
import { adminRequest, type AdminTarget } from './admin-client';
import { run, seg } from './cli-action';

const ROLES = ['reviewer', 'support', 'admin'];
const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * `--since`: an RFC 3339 instant as it is (2025-03-01T10:00:00Z), or a duration back from now (30m, 24h, 7d),
 * as the instant the admin API's `from` takes.
 */
export function sinceInstant(since: string, now = Date.now()): string {
  const duration = /^(\d{1,6})([smhd])$/.exec(since.trim());
  if (duration) return new Date(now - Number(duration[1]) * UNITS[duration[2]!]!).toISOString();
  if (Number.isNaN(Date.parse(since)))
    throw new Error(
      `--since ${since}: give an RFC 3339 date-time (2025-03-01T10:00:00Z) or a duration (24h, 7d)`,
    );
  return since;
}

/**
 * `eligo admin staff ...` (named staff members of the admin API: /rest/admin/v1/staff) and `eligo admin
 * audit` (its audit log). A generated password is printed once, in the JSON of `create` and
 * `reset-password`: nothing keeps it.
 */
export function addStaffCommands(admin: Command, target: (cmd: Command) => AdminTarget): void {
  const staff = admin
    .command('staff')
    .description('staff members of the admin API: roles, passwords, sessions');
  staff
    .command('create')
    .description('create a member with a generated password (printed once: hand it over yourself)')
    .requiredOption('--email <email>', 'the email they sign in with')
    .requiredOption('--name <name>', 'their name')
    .addOption(new Option('--role <role>', 'what they may do').choices(ROLES).makeOptionMandatory())
    .action(
      run(async (opts: { email: string; name: string; role: string }, cmd) =>
        adminRequest(target(cmd), 'POST', '/staff', { email: opts.email, name: opts.name, role: opts.role }),
      ),
    );
  staff
    .command('list')
    .description('every member, newest first (all pages)')
    .action(
      run(async (_opts, cmd) => {
        const members: unknown[] = [];
        let cursor: string | null = null;
        do {
          const query: string = cursor ? `?limit=100&cursor=${encodeURIComponent(cursor)}` : '?limit=100';
          const page = (await adminRequest(target(cmd), 'GET', `/staff${query}`)) as {
            staff: unknown[];
            nextCursor: string | null;
          };
          members.push(...page.staff);
          cursor = page.nextCursor;
        } while (cursor);
        return { staff: members };
      }),
    );
  staff
    .command('get')
    .argument('<staffId>')
    .action(run(async (id: string, _opts, cmd) => adminRequest(target(cmd), 'GET', `/staff/${seg(id)}`)));
  staff
    .command('disable')
    .description('stop a member from signing in; their sessions end at once')
    .argument('<staffId>')
    .action(
      run(async (id: string, _opts, cmd) =>
        adminRequest(target(cmd), 'PATCH', `/staff/${seg(id)}`, { disabled: true }),
      ),
    );
  staff
    .command('enable')
    .description('let a disabled member sign in again')
    .argument('<staffId>')
    .action(
      run(async (id: string, _opts, cmd) =>
        adminRequest(target(cmd), 'PATCH', `/staff/${seg(id)}`, { disabled: false }),
      ),
    );
  staff
    .command('set-role')
    .description("change a member's role (applies to their next request)")
    .argument('<staffId>')
    .addOption(new Option('--role <role>', 'the new role').choices(ROLES).makeOptionMandatory())
    .action(
      run(async (id: string, opts: { role: string }, cmd) =>
        adminRequest(target(cmd), 'PATCH', `/staff/${seg(id)}`, { role: opts.role }),
      ),
    );
  staff
    .command('reset-password')
    .description('a new generated password (printed once); ends their sessions and lifts a lockout')
    .argument('<staffId>')
    .action(
      run(async (id: string, _opts, cmd) => adminRequest(target(cmd), 'POST', `/staff/${seg(id)}/password`)),
    );

  admin
    .command('audit')
    .description('the audit log of the admin API, newest first: who changed what, and sign-ins')
    .option('--action <operationId>', 'only this action, e.g. adminDecideReview or createConsoleSession')
    .option('--actor <staffId|operator>', 'only this staff member, or the operator token')
    .option('--since <when>', 'only entries since then: 2025-03-01T10:00:00Z, or back from now: 30m, 24h, 7d')
    .option('--limit <n>', 'at most this many (1-500, default 100)')
    .action(
      run(async (opts: { action?: string; actor?: string; since?: string; limit?: string }, cmd) => {
        const query = new URLSearchParams();
        if (opts.actor) query.set('actor', opts.actor);
        if (opts.action) query.set('action', opts.action);
        if (opts.since) query.set('from', sinceInstant(opts.since));
        if (opts.limit) query.set('limit', opts.limit);
        const suffix = query.size > 0 ? `?${query.toString()}` : '';
        return adminRequest(target(cmd), 'GET', `/audit${suffix}`);
      }),
    );
}
