/**
 * The field-cipher purpose the programs service seals an HTTP source's secret with
 * (InstantMatchHttp.sealed_secret) and this service opens it with: both derive the key from the deployment's
 * master key, so the secret never travels in clear between them nor in the programs' events.
 */
export const INSTANT_SOURCE_SECRET_PURPOSE = 'programs.instant-source-secret';
