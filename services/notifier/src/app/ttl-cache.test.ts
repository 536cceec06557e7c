import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  it('forgets entries once their time is up', () => {
    let now = 0;
    const cache = new TtlCache<string, number>(10, () => now);
    cache.set('a', 1, 100);
    now = 99;
    expect(cache.get('a')).toBe(1);
    now = 100;
    expect(cache.get('a')).toBeUndefined();
  });

  it('drops the oldest entries when full', () => {
    const cache = new TtlCache<string, number>(2, () => 0);
    cache.set('a', 1, 100);
    cache.set('b', 2, 100);
    cache.set('a', 3, 100);
    cache.set('c', 4, 100);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([3, undefined, 4]);
  });
});
