import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ModuleDefinition, ModuleName } from '@eligo/runtime';

/** Finds a module's definition; undefined when there is none of that name. */
export type ModuleLookup = (name: ModuleName) => ModuleDefinition | undefined;

/**
 * The modules to start in one process for `target` (a module or several): each target and, through
 * `dependsOn`, every module it needs, dependencies first (the order `--target` takes them in). Modules in
 * `remote` are reached elsewhere: neither started nor followed. Throws on a dependency cycle and on a module
 * `lookup` does not know, naming the path that led there.
 */
export function modulesToStart(
  target: ModuleName | readonly ModuleName[],
  lookup: ModuleLookup,
  remote: readonly ModuleName[] = [],
): ModuleName[] {
  const order: ModuleName[] = [];
  const state = new Map<ModuleName, 'visiting' | 'done'>();
  const visit = (name: ModuleName, path: readonly ModuleName[]): void => {
    if (remote.includes(name)) return;
    const seen = state.get(name);
    if (seen === 'done') return;
    if (seen === 'visiting') throw new Error(`module dependency cycle: ${[...path, name].join(' -> ')}`);
    const definition = lookup(name);
    if (!definition) {
      const neededBy = path.length > 0 ? ` (needed by ${path.join(' -> ')})` : '';
      throw new Error(`no module named "${name}"${neededBy}`);
    }
    state.set(name, 'visiting');
    for (const dep of definition.dependsOn) visit(dep, [...path, name]);
    state.set(name, 'done');
    order.push(name);
  };
  const targets = typeof target === 'string' ? [target] : target;
  if (targets.length === 0) throw new Error('no module to start');
  for (const name of targets) {
    if (remote.includes(name)) throw new Error(`module "${name}" is both a target and remote`);
    visit(name, []);
  }
  return order;
}

/** The package that holds a module: services/<name> is @eligo/<name>. */
const packageOf = (name: ModuleName): string => `@eligo/${name}`;

/**
 * A lookup that loads each module's definition from its package, `@eligo/<name>`, at run time (the built
 * entry, dist/). local-infra depends on no service: the package must be a declared (dev)dependency of the
 * package whose test starts it, so that turbo builds it first; the error says so when it is not, and when
 * it cannot be loaded. `given` definitions come first (the package's own module, from its source).
 *
 * `packageDir` is the directory of that calling package (where jest runs: the working directory).
 */
export function packageLookup(
  given: Partial<Record<ModuleName, ModuleDefinition>>,
  packageDir: string,
): ModuleLookup {
  const caller = callingPackage(packageDir);
  return (name) => {
    const own = given[name];
    if (own) return own;
    const pkg = packageOf(name);
    const notDeclared = (why: string) =>
      new Error(
        `cannot start the module "${name}": ${why}. ${pkg} must be a declared (dev)dependency of the package ` +
          `whose test starts it${caller ? ` (${caller.name}, ${caller.file})` : ''}, so that turbo builds it first.`,
      );
    if (caller?.name === pkg) {
      throw new Error(
        `cannot start the module "${name}" from ${pkg}'s own dist/: pass its definition from the source, ` +
          `startModules('${name}', { modules: { ${name}: definition } })`,
      );
    }
    if (caller && !caller.declared.has(pkg)) throw notDeclared(`${caller.name} does not declare ${pkg}`);
    let exported: unknown;
    try {
      // Plain require, not createRequire: under jest it goes through jest's module registry, so the module
      // shares @eligo/runtime (and every other module) with the test that starts it.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      exported = require(pkg);
    } catch (err) {
      // Not `instanceof Error`: under jest, the resolver's error comes from another realm.
      const message = String((err as { message?: unknown } | undefined)?.message ?? err).split('\n')[0];
      throw notDeclared(`require('${pkg}') failed (${message})`);
    }
    const definition = (exported as { definition?: ModuleDefinition } | undefined)?.definition;
    if (
      !definition ||
      typeof definition.createModule !== 'function' ||
      !Array.isArray(definition.dependsOn)
    ) {
      throw new Error(`${pkg} exports no module definition (\`definition\` with createModule and dependsOn)`);
    }
    return definition;
  };
}

interface CallingPackage {
  name: string;
  file: string;
  declared: Set<string>;
}

/** The nearest package.json at or above `dir` that is one of ours (@eligo/...); undefined outside them. */
function callingPackage(dir: string): CallingPackage | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const file = join(at, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as {
        name?: string;
        dependencies?: Record<string, string>;
        devDependencies?: Record<string, string>;
      };
      if (!pkg.name?.startsWith('@eligo/')) return undefined;
      const declared = new Set([
        ...Object.keys(pkg.dependencies ?? {}),
        ...Object.keys(pkg.devDependencies ?? {}),
      ]);
      return { name: pkg.name, file, declared };
    }
    if (dirname(at) === at) return undefined;
  }
}
