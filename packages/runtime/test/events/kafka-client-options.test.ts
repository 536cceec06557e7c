import { Writable } from 'node:stream';
import type { KafkaSecurity } from '../../src/config/kafka-security';
import { createKafkaEventBus } from '../../src/events/kafka-bus';
import { kafkaClientSecurity, kafkaSecurityWarnings } from '../../src/events/kafka-client-options';
import { createLogger } from '../../src/logging/logger';

const none: KafkaSecurity = { ssl: false, caFile: undefined, ca: undefined, sasl: undefined };
const sasl = (mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'): KafkaSecurity['sasl'] => ({
  mechanism,
  username: 'eligo',
  password: 'the-kafka-password',
  passwordFile: undefined,
});

describe('kafkaClientSecurity', () => {
  it('leaves the client in plaintext without settings', () => {
    expect(kafkaClientSecurity(undefined)).toEqual({});
    expect(kafkaClientSecurity(none)).toEqual({});
  });

  it("verifies the brokers' certificates against Node's default CAs, or against the CA file's only", () => {
    expect(kafkaClientSecurity({ ...none, ssl: true })).toEqual({ ssl: true });
    expect(
      kafkaClientSecurity({ ...none, ssl: true, caFile: '/ca.pem', ca: ['-----BEGIN CERTIFICATE-----'] }),
    ).toEqual({ ssl: { ca: ['-----BEGIN CERTIFICATE-----'], rejectUnauthorized: true } });
  });

  it('passes the SASL mechanism and credentials, with or without TLS', () => {
    expect(kafkaClientSecurity({ ...none, ssl: true, sasl: sasl('scram-sha-512') })).toEqual({
      ssl: true,
      sasl: { mechanism: 'scram-sha-512', username: 'eligo', password: 'the-kafka-password' },
    });
    expect(kafkaClientSecurity({ ...none, sasl: sasl('plain') })).toEqual({
      sasl: { mechanism: 'plain', username: 'eligo', password: 'the-kafka-password' },
    });
  });
});

describe('kafkaSecurityWarnings', () => {
  it('warns of SASL plain without TLS only', () => {
    expect(kafkaSecurityWarnings({ ...none, sasl: sasl('plain') })).toHaveLength(1);
    expect(kafkaSecurityWarnings({ ...none, ssl: true, sasl: sasl('plain') })).toEqual([]);
    expect(kafkaSecurityWarnings({ ...none, sasl: sasl('scram-sha-256') })).toEqual([]);
    expect(kafkaSecurityWarnings(none)).toEqual([]);
    expect(kafkaSecurityWarnings(undefined)).toEqual([]);
  });

  it('is logged once when the bus is created, without the password', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger({ level: 'debug' }, sink);
    // Creating the bus connects nothing: the broker address may be anything.
    const bus = createKafkaEventBus({
      brokers: ['127.0.0.1:1'],
      clientId: 'warning-test',
      logger,
      security: { ...none, sasl: sasl('plain') },
    });
    await bus.close();
    const warnings = lines
      .map((l) => JSON.parse(l) as { level: string; msg: string })
      .filter((l) => l.level === 'warn');
    expect(warnings.map((w) => w.msg)).toEqual([expect.stringContaining('SASL plain without TLS')]);
    expect(lines.join('')).not.toContain('the-kafka-password');
  });
});
