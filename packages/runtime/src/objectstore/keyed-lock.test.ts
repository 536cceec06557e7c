import { KeyedLock } from './keyed-lock';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedLock', () => {
  it('runs tasks for one key one at a time, in order, even when one fails', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        log.push(`${name} start`);
        await tick();
        log.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      lock.run('k', task('a')),
      lock.run('k', task('b', true)),
      lock.run('k', task('c')),
    ]);
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('lets different keys run at the same time', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
    };
    await Promise.all([lock.run('x', task('x')), lock.run('y', task('y'))]);
    expect(log.slice(0, 2).sort()).toEqual(['x start', 'y start']);
  });
});
