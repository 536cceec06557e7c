import { parseTargets, startOrder } from './targets';

describe('parseTargets', () => {
  it('expands all', () => {
    expect(parseTargets('all')).toHaveLength(7);
  });
  it('keeps a comma list and removes duplicates', () => {
    expect(parseTargets('gateway, programs,gateway')).toEqual(['gateway', 'programs']);
  });
  it('rejects unknown modules naming them', () => {
    expect(() => parseTargets('gateway,billing')).toThrow('unknown target(s) billing');
  });
  it('rejects an empty target', () => {
    expect(() => parseTargets(' , ')).toThrow('empty');
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
