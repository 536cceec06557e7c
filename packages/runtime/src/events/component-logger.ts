import type { Logger } from '../logging/logger';

/**
 * pino appends child bindings without replacing them, so a second `component` would print the key twice.
 * Callers often hand in a logger that already names its component (e.g. componentLogger(root, 'kafka')):
 * keep theirs, add ours only when there is none.
 */
export function withComponent(
  logger: Logger,
  component: string,
  bindings: Record<string, unknown> = {},
): Logger {
  const named = Object.prototype.hasOwnProperty.call(logger.bindings(), 'component');
  return logger.child(named ? bindings : { component, ...bindings });
}
