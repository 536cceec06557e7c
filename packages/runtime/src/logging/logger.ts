import pino, { type Logger, type LoggerOptions } from 'pino';
import { activeTraceIds } from '../telemetry/trace-context';

export type { Logger } from 'pino';

export interface LoggingConfig {
  level: string;
  /** Pretty output is for humans at a terminal; production logs stay JSON. */
  pretty?: boolean;
}

/**
 * Paths whose values never reach a log line: tokens, secrets and PII fields
 * (docs/architecture.md, "Data ownership"). Redaction is a safety net; code still must not log request
 * bodies.
 */
export const redactPaths = [
  'token',
  'accessToken',
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'password',
  'secret',
  'secretKey',
  '*.token',
  '*.secret',
  '*.secretKey',
  '*.password',
  'firstName',
  'lastName',
  'email',
  'birthDate',
  'phoneNumber',
  'socialSecurityNumber',
  '*.firstName',
  '*.lastName',
  '*.email',
  '*.birthDate',
  '*.phoneNumber',
  '*.socialSecurityNumber',
];

export function createLogger(config: LoggingConfig, destination?: pino.DestinationStream): Logger {
  const options: LoggerOptions = {
    level: config.level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: redactPaths, censor: '[redacted]' },
    formatters: { level: (label) => ({ level: label }) },
    // With tracing on, a line written inside a span names it, so logs and traces join up.
    mixin: () => activeTraceIds() ?? {},
  };
  return destination ? pino(options, destination) : pino(options);
}

/** A child logger per module, so that every line says which component wrote it. */
export function componentLogger(root: Logger, component: string): Logger {
  return root.child({ component });
}
