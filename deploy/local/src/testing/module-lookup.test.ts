import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModuleDefinition } from '@eligo/runtime';
import { modulesToStart, packageLookup, type ModuleLookup } from './module-lookup';

const definition = (...dependsOn: string[]): ModuleDefinition => ({
  createModule: () => {
    throw new Error('not created in these tests');
  },
  dependsOn,
});

/** The dependencies of today's services (docs/architecture.md, "Modules and targets"). */
const services: Record<string, ModuleDefinition> = {
  programs: definition(),
  organizations: definition('programs'),
  verification: definition('programs', 'organizations'),
  documents: definition('verification'),
  reports: definition('verification', 'programs'),
  notifier: definition('programs', 'verification'),
};
const lookupIn =
  (defs: Record<string, ModuleDefinition>): ModuleLookup =>
  (name) =>
    defs[name];

describe('modulesToStart', () => {
  it.each([
    ['programs', ['programs']],
    ['organizations', ['programs', 'organizations']],
    ['verification', ['programs', 'organizations', 'verification']],
    ['documents', ['programs', 'organizations', 'verification', 'documents']],
    ['reports', ['programs', 'organizations', 'verification', 'reports']],
    ['notifier', ['programs', 'organizations', 'verification', 'notifier']],
  ])('starts %s after everything it needs, transitively', (target, expected) => {
    expect(modulesToStart(target, lookupIn(services))).toEqual(expected);
  });

  it('takes several targets and starts a shared dependency once', () => {
    expect(modulesToStart(['reports', 'documents'], lookupIn(services))).toEqual([
      'programs',
      'organizations',
      'verification',
      'reports',
      'documents',
    ]);
  });

  it('neither starts nor follows a remote module', () => {
    expect(modulesToStart('verification', lookupIn(services), ['organizations'])).toEqual([
      'programs',
      'verification',
    ]);
    expect(modulesToStart('documents', lookupIn(services), ['verification'])).toEqual(['documents']);
  });

  it('asks the lookup only for the modules it starts', () => {
    const asked: string[] = [];
    modulesToStart('organizations', (name) => (asked.push(name), services[name]));
    expect(asked).toEqual(['organizations', 'programs']);
  });

  it('refuses a dependency cycle, naming it', () => {
    const cyclic = { a: definition('b'), b: definition('c'), c: definition('a'), d: definition('a') };
    expect(() => modulesToStart('d', lookupIn(cyclic))).toThrow(
      'module dependency cycle: d -> a -> b -> c -> a',
    );
    expect(() => modulesToStart('self', lookupIn({ self: definition('self') }))).toThrow(
      'module dependency cycle: self -> self',
    );
  });

  it('refuses a missing module, naming what needed it', () => {
    const defs = { a: definition('b'), b: definition('ghost') };
    expect(() => modulesToStart('a', lookupIn(defs))).toThrow('no module named "ghost" (needed by a -> b)');
    expect(() => modulesToStart('ghost', lookupIn(defs))).toThrow(/^no module named "ghost"$/);
  });

  it('refuses no target, and a target that is also remote', () => {
    expect(() => modulesToStart([], lookupIn(services))).toThrow('no module to start');
    expect(() => modulesToStart('programs', lookupIn(services), ['programs'])).toThrow(
      'module "programs" is both a target and remote',
    );
  });
});

describe('packageLookup', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'eligo-lookup-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const calling = (pkg: object) => writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));

  it('takes a given definition first, without loading its package', () => {
    calling({ name: '@eligo/widgets' });
    const widgets = definition();
    expect(packageLookup({ widgets }, dir)('widgets')).toBe(widgets);
  });

  it('refuses a package the calling package does not declare, saying it must', () => {
    calling({ name: '@eligo/widgets', devDependencies: { '@eligo/local-infra': '0.1.0' } });
    expect(() => packageLookup({}, dir)('programs')).toThrow(
      `cannot start the module "programs": @eligo/widgets does not declare @eligo/programs. @eligo/programs must ` +
        `be a declared (dev)dependency of the package whose test starts it (@eligo/widgets, ${join(dir, 'package.json')}), ` +
        'so that turbo builds it first.',
    );
  });

  it('says the same when the declared package cannot be required', () => {
    calling({ name: '@eligo/widgets', devDependencies: { '@eligo/no-such-service': '0.1.0' } });
    expect(() => packageLookup({}, dir)('no-such-service')).toThrow(
      /^cannot start the module "no-such-service": require\('@eligo\/no-such-service'\) failed \(Cannot find module.*\)\. @eligo\/no-such-service must be a declared \(dev\)dependency of the package whose test starts it .*, so that turbo builds it first\.$/,
    );
  });

  it("refuses the package's own module from its dist/: the test must pass it from the source", () => {
    calling({ name: '@eligo/programs' });
    expect(() => packageLookup({}, dir)('programs')).toThrow(
      "pass its definition from the source, startModules('programs', { modules: { programs: definition } })",
    );
  });
});
