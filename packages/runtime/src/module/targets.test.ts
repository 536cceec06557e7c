import { parseTargets, startOrder } from './targets';

// The modules are the entry point's (the CLI's registry); the runtime knows none by name.
const known = ['gateway', 'programs', 'verification'];

describe('parseTargets', () => {
  it('expands all to every module the entry point knows', () => {
    expect(parseTargets('all', known)).toEqual(known);
  });
  it('keeps a comma list and removes duplicates', () => {
    expect(parseTargets('gateway, programs,gateway', known)).toEqual(['gateway', 'programs']);
  });
  it('rejects unknown modules naming them and the known ones', () => {
    expect(() => parseTargets('gateway,billing', known)).toThrow(
      'unknown target(s) billing; known: all, gateway, programs, verification',
    );
  });
  it('rejects an empty target', () => {
    expect(() => parseTargets(' , ', known)).toThrow('empty');
  });
});

describe('startOrder', () => {
  it('starts dependencies first and ignores dependencies running elsewhere', () => {
    const order = startOrder([
      { name: 'gateway', dependsOn: ['programs', 'verification'] },
      { name: 'verification', dependsOn: ['programs', 'organizations'] },
      { name: 'programs', dependsOn: [] },
    ]);
    expect(order).toEqual(['programs', 'verification', 'gateway']);
  });
  it('reports a cycle', () => {
    expect(() =>
      startOrder([
        { name: 'a', dependsOn: ['b'] },
        { name: 'b', dependsOn: ['a'] },
      ]),
    ).toThrow('cycle: a -> b -> a');
  });
});
