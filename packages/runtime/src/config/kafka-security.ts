import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { trimLineBreaks, type envSchema } from './schema';

export type KafkaSaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512';

/** How every Kafka client of the process connects: TLS and SASL, or neither (plaintext). */
export interface KafkaSecurity {
  /** ELIGO_KAFKA_SSL: TLS to the brokers, their certificates verified. */
  ssl: boolean;
  /** ELIGO_KAFKA_SSL_CA_FILE, when set. */
  caFile: string | undefined;
  /** The PEM certificates of caFile, read at start: trusted instead of Node's default CAs. */
  ca: string[] | undefined;
  /** ELIGO_KAFKA_SASL_*: undefined without a mechanism. */
  sasl:
    | {
        mechanism: KafkaSaslMechanism;
        username: string;
        password: string;
        /** ELIGO_KAFKA_SASL_PASSWORD_FILE, when the password came from it. */
        passwordFile: string | undefined;
      }
    | undefined;
}

type Env = z.output<typeof envSchema>;

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g;

/** The ELIGO_KAFKA_SSL* and ELIGO_KAFKA_SASL_* settings; each contradiction or unreadable file is an issue. */
export function kafkaSecurity(e: Env, issues: string[]): KafkaSecurity {
  return {
    ssl: e.ELIGO_KAFKA_SSL,
    caFile: e.ELIGO_KAFKA_SSL_CA_FILE,
    ca: readCaFile(e, issues),
    sasl: saslSettings(e, issues),
  };
}

function readCaFile(e: Env, issues: string[]): string[] | undefined {
  const file = e.ELIGO_KAFKA_SSL_CA_FILE;
  if (!file) return undefined;
  if (!e.ELIGO_KAFKA_SSL) {
    issues.push(
      'ELIGO_KAFKA_SSL_CA_FILE is set but ELIGO_KAFKA_SSL is false: set ELIGO_KAFKA_SSL=true for TLS, ' +
        'or unset ELIGO_KAFKA_SSL_CA_FILE',
    );
    return undefined;
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    issues.push(`ELIGO_KAFKA_SSL_CA_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code})`);
    return undefined;
  }
  const certificates = text.match(PEM_CERTIFICATE) ?? [];
  if (certificates.length === 0) {
    issues.push(`ELIGO_KAFKA_SSL_CA_FILE: ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
    return undefined;
  }
  for (const [i, pem] of certificates.entries()) {
    try {
      new X509Certificate(pem);
    } catch {
      issues.push(
        `ELIGO_KAFKA_SSL_CA_FILE: certificate ${i + 1} of ${file} is not a valid X.509 certificate`,
      );
      return undefined;
    }
  }
  return certificates;
}

function saslSettings(e: Env, issues: string[]): KafkaSecurity['sasl'] {
  const mechanism = e.ELIGO_KAFKA_SASL_MECHANISM;
  const username = e.ELIGO_KAFKA_SASL_USERNAME;
  const file = e.ELIGO_KAFKA_SASL_PASSWORD_FILE;
  const count = issues.length;
  if (!mechanism) {
    const given = [
      ['ELIGO_KAFKA_SASL_USERNAME', username],
      ['ELIGO_KAFKA_SASL_PASSWORD', e.ELIGO_KAFKA_SASL_PASSWORD],
      ['ELIGO_KAFKA_SASL_PASSWORD_FILE', file],
    ].flatMap(([name, value]) => (value === undefined ? [] : [name]));
    if (given.length > 0) {
      issues.push(
        `${given.join(' and ')} set without ELIGO_KAFKA_SASL_MECHANISM: set it to plain, scram-sha-256 ` +
          'or scram-sha-512, or unset them for no SASL',
      );
    }
  }
  if (e.ELIGO_KAFKA_SASL_PASSWORD !== undefined && file) {
    issues.push('ELIGO_KAFKA_SASL_PASSWORD and ELIGO_KAFKA_SASL_PASSWORD_FILE are both set: set one of them');
  }
  let password = e.ELIGO_KAFKA_SASL_PASSWORD;
  if (file && password === undefined) {
    try {
      password = trimLineBreaks(readFileSync(file, 'utf8'));
      if (password.trim() === '') issues.push(`ELIGO_KAFKA_SASL_PASSWORD_FILE: ${file} holds no password`);
    } catch (err) {
      issues.push(
        `ELIGO_KAFKA_SASL_PASSWORD_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code})`,
      );
    }
  }
  if (mechanism) {
    // A password file that could not be read is reported above, not as missing.
    const missing = [
      ...(username ? [] : ['ELIGO_KAFKA_SASL_USERNAME']),
      ...(password === undefined && !file
        ? ['ELIGO_KAFKA_SASL_PASSWORD (or ELIGO_KAFKA_SASL_PASSWORD_FILE)']
        : []),
    ];
    if (missing.length > 0)
      issues.push(`ELIGO_KAFKA_SASL_MECHANISM=${mechanism} needs ${missing.join(' and ')}`);
  }
  if (!mechanism || !username || password === undefined || issues.length > count) return undefined;
  return { mechanism, username, password, passwordFile: file };
}
