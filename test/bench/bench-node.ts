/**
 * Flags for the node of an Eligo process a benchmark starts, from ELIGO_BENCH_NODE_ARGS, e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` (the profile is written when Eligo stops).
 */
export const benchNodeArgs = (): string[] =>
  process.env.ELIGO_BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
