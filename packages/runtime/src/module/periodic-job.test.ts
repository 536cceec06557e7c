import { createLogger } from '../logging/logger';
import { PeriodicJob } from './periodic-job';

const logger = createLogger({ level: 'silent' });

function job(run: () => Promise<boolean>, intervalMs = 10_000) {
  return new PeriodicJob({ name: 'test', intervalMs, run, logger });
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

it('runs a pass at start, then again at once while passes report more work', async () => {
  let passes = 0;
  const j = job(async () => ++passes < 3);
  j.start();
  await until(() => passes === 3);
  await j.stop();
  // The third pass found no more: the job then waits its interval (10 s), so no fourth pass ran.
  expect(passes).toBe(3);
});

it('retries a failed pass after a pause instead of stopping', async () => {
  let passes = 0;
  const j = job(async () => {
    passes += 1;
    if (passes === 1) throw new Error('database gone');
    return false;
  }, 50);
  j.start();
  await until(() => passes >= 2);
  await j.stop();
});

it('lets the pass in flight finish before stop resolves, and never overlaps passes', async () => {
  let running = 0;
  let overlapped = false;
  let finished = 0;
  const j = job(async () => {
    running += 1;
    overlapped ||= running > 1;
    await new Promise((r) => setTimeout(r, 30));
    running -= 1;
    finished += 1;
    return true;
  });
  j.start();
  await new Promise((r) => setTimeout(r, 10));
  await j.stop();
  expect([running, overlapped, finished >= 1]).toEqual([0, false, true]);
});
