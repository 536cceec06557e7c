import type { KafkaConfig, SASLOptions } from 'kafkajs';
import type { KafkaSecurity } from '../config/kafka-security';

/**
 * The TLS and SASL options of every kafkajs client Eligo creates (kafka-bus.ts: its admin, producer and
 * consumers share one client), from config.kafka.security. Without it, or with neither set: plaintext.
 * Certificates are always verified: against the CA file's certificates when given, else Node's default CAs.
 */
export function kafkaClientSecurity(security: KafkaSecurity | undefined): Pick<KafkaConfig, 'ssl' | 'sasl'> {
  const options: Pick<KafkaConfig, 'ssl' | 'sasl'> = {};
  if (security?.ssl) options.ssl = security.ca ? { ca: security.ca, rejectUnauthorized: true } : true;
  const sasl = security?.sasl;
  if (sasl) {
    const { mechanism, username, password } = sasl;
    const saslOptions: SASLOptions = { mechanism, username, password };
    options.sasl = saslOptions;
  }
  return options;
}

/** What an operator should hear about the settings once at start: SASL plain sends the password as it is. */
export function kafkaSecurityWarnings(security: KafkaSecurity | undefined): string[] {
  if (security?.sasl?.mechanism === 'plain' && !security.ssl) {
    return [
      'Kafka SASL plain without TLS (ELIGO_KAFKA_SSL=false): the password crosses the network in clear text; ' +
        'use it on a local cluster only',
    ];
  }
  return [];
}
