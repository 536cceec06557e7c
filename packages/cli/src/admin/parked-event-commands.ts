import { Command, Option } from 'commander';
import { adminRequest, type AdminTarget } from './admin-client';
import { run, seg } from './cli-action';

const MODULES = ['verification', 'reports', 'notifier'];

/**
 * `eligo admin parked-events list|show|replay`: events consumers set aside after failing on them
 * ELIGO_EVENT_MAX_ATTEMPTS times in a row (GET/POST /rest/admin/v1/parked-events...).
 */
export function addParkedEventCommands(admin: Command, target: (cmd: Command) => AdminTarget): void {
  const parked = admin.command('parked-events').description('events consumers parked: list, inspect, replay');
  parked
    .command('list')
    .description('parked events, newest first (replayed ones too with --all)')
    .addOption(new Option('--module <module>', 'only this module').choices(MODULES))
    .option('--consumer <name>', 'only this consumer')
    .option('--all', 'include replayed events')
    .option('--limit <n>', 'at most this many (1-500, default 100)')
    .action(
      run(async (opts: { module?: string; consumer?: string; all?: boolean; limit?: string }, cmd) => {
        const query = new URLSearchParams();
        if (opts.module) query.set('module', opts.module);
        if (opts.consumer) query.set('consumer', opts.consumer);
        if (opts.all) query.set('status', 'all');
        if (opts.limit) query.set('limit', opts.limit);
        const suffix = query.size > 0 ? `?${query.toString()}` : '';
        return adminRequest(target(cmd), 'GET', `/parked-events${suffix}`);
      }),
    );
  parked
    .command('show')
    .argument('<module>')
    .argument('<id>')
    .action(
      run(async (module: string, id: string, _opts, cmd) =>
        adminRequest(target(cmd), 'GET', `/parked-events/${seg(module)}/${seg(id)}`),
      ),
    );
  parked
    .command('replay')
    .description('run the event through its consumer again, once its cause is fixed')
    .argument('<module>')
    .argument('<id>')
    .action(
      run(async (module: string, id: string, _opts, cmd) =>
        adminRequest(target(cmd), 'POST', `/parked-events/${seg(module)}/${seg(id)}/replay`),
      ),
    );
}
