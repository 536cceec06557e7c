import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// The Grafana dashboard (deploy/grafana/) reads metrics that exist: each name its queries use is registered
// by Eligo's code (or is one of prom-client's process metrics) and documented in docs/operations.md.
const repo = join(__dirname, '..', '..');
const dashboard = JSON.parse(
  readFileSync(join(repo, 'deploy/grafana/eligo-golden-signals.json'), 'utf8'),
) as { uid: string; panels: Panel[]; templating: { list: { name: string }[] } };
interface Panel {
  type: string;
  title: string;
  targets?: { expr: string }[];
}
const docs = readFileSync(join(repo, 'docs/operations.md'), 'utf8');

/** Every `.ts` file of the packages' and services' sources, tests left out. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory())
      return entry === 'node_modules' || entry === 'dist' ? [] : sources(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}
const registered = new Set(
  ['packages', 'services']
    .flatMap((root) => readdirSync(join(repo, root)).map((name) => join(repo, root, name, 'src')))
    .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    .flatMap(sources)
    .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/name: '([a-z_]+)'/g)].map((m) => m[1]!)),
);

/** Metric names of a PromQL expression: series names, without histogram suffixes. */
function metricsOf(expr: string): string[] {
  // Label names (grpc_code, grpc_service) stand in selectors and `by (...)`: leave those out first.
  const series = expr.replace(/\{[^}]*\}/g, '').replace(/\bby \([^)]*\)/g, '');
  return [...series.matchAll(/\b((?:eligo|grpc|process|nodejs)_[a-z0-9_]+)\b/g)].map((m) =>
    m[1]!.replace(/_(bucket|count|sum)$/, ''),
  );
}

const graphs = dashboard.panels.filter((panel) => panel.type !== 'row');
const used = [...new Set(graphs.flatMap((panel) => panel.targets!.flatMap((t) => metricsOf(t.expr))))];

it('has queries in every graph, on the datasource and job variables', () => {
  expect(dashboard.uid).toBe('eligo-golden-signals');
  expect(dashboard.templating.list.map((v) => v.name)).toEqual(['datasource', 'job']);
  for (const panel of graphs) {
    expect([panel.title, panel.targets?.length ?? 0]).not.toEqual([panel.title, 0]);
    for (const { expr } of panel.targets!)
      expect([panel.title, expr]).toEqual([panel.title, expect.stringContaining('job=~"$job"')]);
  }
});

it.each(used.filter((name) => !/^(process|nodejs)_/.test(name)))(
  'reads %s, which Eligo registers and documents',
  (name) => {
    expect(registered).toContain(name);
    expect(docs).toContain(`\`${name}{`);
  },
);

it('reads the golden signals: traffic, errors, latency and saturation', () => {
  expect(used).toEqual(
    expect.arrayContaining([
      'eligo_http_request_duration_seconds',
      'grpc_server_handled_total',
      'eligo_outbox_oldest_age_seconds',
      'eligo_db_pool_connections',
      'process_cpu_seconds_total',
    ]),
  );
});
