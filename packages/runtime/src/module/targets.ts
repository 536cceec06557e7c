import type { ModuleName } from '../config/schema';

/** Expands `--target` ("all" or a comma list) into names of `known` modules, rejecting unknown ones. */
export function parseTargets(target: string, known: readonly ModuleName[]): ModuleName[] {
  const parts = target
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) throw new Error('--target is empty; use "all" or a comma list of modules');
  if (parts.includes('all')) return [...known];
  const unknown = parts.filter((p) => !known.includes(p));
  if (unknown.length > 0) {
    throw new Error(`unknown target(s) ${unknown.join(', ')}; known: all, ${known.join(', ')}`);
  }
  return [...new Set(parts)] as ModuleName[];
}

/** Orders modules so that each starts after the modules it depends on (among those in this process). */
export function startOrder(modules: { name: string; dependsOn: readonly string[] }[]): string[] {
  const present = new Map(modules.map((m) => [m.name, m]));
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, path: string[]): void => {
    const s = state.get(name);
    if (s === 'done') return;
    if (s === 'visiting') throw new Error(`module dependency cycle: ${[...path, name].join(' -> ')}`);
    state.set(name, 'visiting');
    for (const dep of present.get(name)?.dependsOn ?? []) if (present.has(dep)) visit(dep, [...path, name]);
    state.set(name, 'done');
    order.push(name);
  };
  for (const m of modules) visit(m.name, []);
  return order;
}
