import { existsSync } from 'node:fs';
import { extname } from 'node:path';
import { Command, Option } from 'commander';
import { adminRequest, adminUpload, type AdminTarget } from './admin-client';
import { run, seg } from './cli-action';

const FORMATS: Record<string, string> = { csv: 'text/csv', ndjson: 'application/x-ndjson' };
const EXTENSIONS: Record<string, string> = { '.csv': 'csv', '.ndjson': 'ndjson', '.jsonl': 'ndjson' };
const STATUSES = ['PENDING', 'ACCEPTED', 'DECLINED'];

/** The import format: --format wins, else the file extension; a file we cannot tell is refused up front. */
export function importContentType(file: string, format: string | undefined): string {
  const chosen = format ?? EXTENSIONS[extname(file).toLowerCase()];
  if (!chosen)
    throw new Error(`cannot tell the format of ${file}: name it .csv/.ndjson/.jsonl or pass --format`);
  const type = FORMATS[chosen];
  if (!type) throw new Error(`unknown format ${chosen} (csv or ndjson)`);
  return type;
}

/** `eligo admin organizations ...` and `eligo admin add-school-requests ...`. */
export function addOrganizationCommands(admin: Command, target: (cmd: Command) => AdminTarget): void {
  const organizations = admin.command('organizations').description('the organization catalog');
  organizations
    .command('import')
    .description(
      'import a CSV (externalId,name,type,country,domains,city,state,loginUrl; domains separated by ;) or ' +
        'JSON-lines file; rows are matched by externalId, so importing the same file again changes nothing',
    )
    .argument('<file>')
    .addOption(
      new Option('--format <format>', 'file format (default from the extension)').choices(['csv', 'ndjson']),
    )
    .action(
      run(async (file: string, opts: { format?: string }, cmd) => {
        const contentType = importContentType(file, opts.format);
        if (!existsSync(file)) throw new Error(`${file} does not exist`);
        return adminUpload(target(cmd), '/organizations', file, contentType);
      }),
    );
  organizations
    .command('get')
    .argument('<organizationId>')
    .action(
      run(async (id: string, _opts, cmd) => adminRequest(target(cmd), 'GET', `/organizations/${seg(id)}`)),
    );

  const requests = admin.command('add-school-requests').description('requests to add a school, for review');
  requests
    .command('list')
    .addOption(new Option('--status <status>', 'only this status').choices(STATUSES))
    .option('--program <programId>', 'only this program')
    .option('--page-token <token>', 'nextPageToken of the previous page')
    .action(
      run(async (opts: { status?: string; program?: string; pageToken?: string }, cmd) => {
        const query = new URLSearchParams();
        if (opts.status) query.set('status', opts.status);
        if (opts.program) query.set('programId', opts.program);
        if (opts.pageToken) query.set('pageToken', opts.pageToken);
        const suffix = query.size > 0 ? `?${query.toString()}` : '';
        return adminRequest(target(cmd), 'GET', `/addSchoolRequests${suffix}`);
      }),
    );
  requests
    .command('accept')
    .description('add the school to the catalog (name, country and domain default to the request)')
    .argument('<requestId>')
    .requiredOption('--type <type>', 'organization type, e.g. UNIVERSITY')
    .option('--name <name>', 'organization name')
    .option('--country <country>', 'ISO 3166-1 alpha-2 country')
    .option('--domain <domain...>', 'host names')
    .option('--city <city>')
    .option('--state <state>')
    .action(
      run(async (id: string, opts: Record<string, string | string[] | undefined>, cmd) => {
        const { domain, ...rest } = opts;
        const body = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
        if (domain) body.domains = domain;
        return adminRequest(target(cmd), 'POST', `/addSchoolRequests/${seg(id)}/accept`, body);
      }),
    );
  requests
    .command('decline')
    .argument('<requestId>')
    .option('--reason <reason>', 'why (kept for staff; never sent to the requester)')
    .action(
      run(async (id: string, opts: { reason?: string }, cmd) =>
        adminRequest(target(cmd), 'POST', `/addSchoolRequests/${seg(id)}/decline`, opts.reason ? opts : {}),
      ),
    );
}
