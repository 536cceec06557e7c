/**
 * An error whose message says what to do (which tool is missing, which variable is wrong). The CLI prints
 * only the message for these, and a stack trace for anything else.
 */
export class InfraError extends Error {
  override readonly name = 'InfraError';
}
