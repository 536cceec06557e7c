/**
 * Flags for the node of an Eligo process a benchmark starts, from ELIGO_BENCH_NODE_ARGS, e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` (the profile is written when Eligo stops).
 */
export const benchNodeArgs = (): string[] =>
  process.env.ELIGO_BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];

/**
 * Variables added to the environment of an Eligo process a benchmark starts, from ELIGO_BENCH_ENV as
 * space-separated NAME=value pairs, e.g. `MALLOC_ARENA_MAX=2` to measure an operator's lever in the same run.
 */
export const benchEnv = (): Record<string, string> =>
  Object.fromEntries(
    (process.env.ELIGO_BENCH_ENV?.split(' ').filter(Boolean) ?? []).map((pair) => {
      const at = pair.indexOf('=');
      if (at <= 0) throw new Error(`ELIGO_BENCH_ENV: ${pair} is not NAME=value`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
