/**
 * grpc-js (pinned; client.js makeUnaryRequest) captures the caller's stack with `new Error()` at every unary
 * call, only to append it to the error of a call that fails. In Eligo's deep request stacks (Express's
 * middleware chain, async continuations) that capture cost about 1% of the all-in-one process's CPU in a
 * profile of the verification flow (docs/benchmarks.md, "Verification flow"). grpc-js offers no switch for it
 * (upstream grpc/grpc-node#3083 adds one, unreleased), so the call is started with the stack trace limit at 0,
 * which makes that capture free, and the limit is put back before anything else runs: when the call returns,
 * and first thing when the in-process transport starts the callee's side (in-process.ts), so that no error of
 * the callee loses its stack. A failed call's error names the method instead (`namedCall`).
 */
let saved: number | undefined;

/** Runs `start` (the synchronous start of one unary call) without the caller-stack capture. */
export function withoutCallerStack<T>(start: () => T): T {
  saved = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return start();
  } finally {
    restoreStackTraces();
  }
}

/** Puts the stack trace limit back, once, if a call's start took it away. */
export function restoreStackTraces(): void {
  if (saved === undefined) return;
  Error.stackTraceLimit = saved;
  saved = undefined;
}

/** The error of a failed call, with the method it called where grpc-js would have put the caller's stack. */
export function namedCall<E extends Error>(err: E, path: string): E {
  if (typeof err.stack === 'string' && err.stack.includes('\nfor call at\n'))
    err.stack = err.stack.replace(/\nfor call at\n[\s\S]*$/, `\nfor call of ${path}`);
  return err;
}
