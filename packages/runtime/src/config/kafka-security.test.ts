import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './config';
import { maskConfig } from './mask';

// A throwaway self-signed certificate (public part only), standing in for a cluster's CA.
const CERT = `-----BEGIN CERTIFICATE-----
MIIBSDCB8KADAgECAgkAh4D5ltkN370wCgYIKoZIzj0EAwIwGDEWMBQGA1UEAxMN
ZWxpZ28tdGVzdC1jYTAgFw0yNjExMjYxMTM2MTFaGA8yMTI2MTEwMjExMzYxMVow
GDEWMBQGA1UEAxMNZWxpZ28tdGVzdC1jYTBZMBMGByqGSM49AgEGCCqGSM49AwEH
A0IABKHZmGPtx2IxOpVOxtJYs8JCC574NDON5im6s6UKe1wIxMv0Nmeb88RwhQZS
z6sFpb9RNFlX/3/jdNOPx0m79oKjITAfMB0GA1UdDgQWBBSfC2CvVIeE+tONJxpP
gxCeojoXtzAKBggqhkjOPQQDAgNHADBEAiACLqTkyBdKt6PcAbrRBnpCdoWXCMCP
HhugO+o4Qj6E6QIgc+s2NoF3UDXERT/UOHvXMzkKzl7c0/kpt3LZ0NUt6V8=
-----END CERTIFICATE-----`;

const BROKERS = { ELIGO_KAFKA_BROKERS: 'b-1.kafka.example.com:9096' };
const SASL = {
  ELIGO_KAFKA_SASL_MECHANISM: 'scram-sha-512',
  ELIGO_KAFKA_SASL_USERNAME: 'eligo',
  ELIGO_KAFKA_SASL_PASSWORD: 'correct horse battery staple',
};

let dir: string;
const file = (name: string, content: string): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eligo-kafka-config-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The issues of the ConfigError that loadConfig throws for env (fails when it does not throw one). */
function issuesOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.issues;
    throw err;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('Kafka TLS and SASL settings', () => {
  it('connects in plaintext without SASL by default', () => {
    expect(loadConfig(BROKERS).kafka.security).toEqual({
      ssl: false,
      caFile: undefined,
      ca: undefined,
      sasl: undefined,
    });
    expect(
      loadConfig({ ...BROKERS, ELIGO_KAFKA_SSL: 'false', ELIGO_KAFKA_SASL_MECHANISM: ' ' }).kafka.security,
    ).toEqual({ ssl: false, caFile: undefined, ca: undefined, sasl: undefined });
  });

  it("uses TLS with Node's default CAs, or with the certificates of the CA file read at start", () => {
    expect(loadConfig({ ...BROKERS, ELIGO_KAFKA_SSL: 'true' }).kafka.security).toMatchObject({
      ssl: true,
      caFile: undefined,
      ca: undefined,
    });
    const caFile = file('ca.pem', `# the cluster's CAs\n${CERT}\n${CERT}\n`);
    const security = loadConfig({ ...BROKERS, ELIGO_KAFKA_SSL: 'yes', ELIGO_KAFKA_SSL_CA_FILE: caFile }).kafka
      .security;
    expect(security.ssl).toBe(true);
    expect(security.caFile).toBe(caFile);
    expect(security.ca).toEqual([CERT, CERT]);
  });

  it.each(['plain', 'scram-sha-256', 'scram-sha-512', 'SCRAM-SHA-512'])(
    'takes the SASL mechanism %s',
    (m) => {
      const { sasl } = loadConfig({ ...BROKERS, ...SASL, ELIGO_KAFKA_SASL_MECHANISM: m }).kafka.security;
      expect(sasl).toEqual({
        mechanism: m.toLowerCase(),
        username: 'eligo',
        password: 'correct horse battery staple',
        passwordFile: undefined,
      });
    },
  );

  it('reads the password from a mounted file, without its trailing line break, and keeps it otherwise as is', () => {
    const passwordFile = file('password', ' s3cret pw \r\n');
    const { sasl } = loadConfig({
      ...BROKERS,
      ELIGO_KAFKA_SASL_MECHANISM: 'plain',
      ELIGO_KAFKA_SASL_USERNAME: 'eligo',
      ELIGO_KAFKA_SASL_PASSWORD_FILE: passwordFile,
    }).kafka.security;
    expect(sasl).toEqual({ mechanism: 'plain', username: 'eligo', password: ' s3cret pw ', passwordFile });
    // The same rule for the variable (a Secret made with `echo` ends with a line break).
    expect(loadConfig({ ...SASL, ELIGO_KAFKA_SASL_PASSWORD: 'pw \n' }).kafka.security.sasl?.password).toBe(
      'pw ',
    );
  });

  it.each([
    [{ ELIGO_KAFKA_SSL: 'maybe' }, ['ELIGO_KAFKA_SSL']],
    [{ ELIGO_KAFKA_SASL_MECHANISM: 'gssapi' }, ['ELIGO_KAFKA_SASL_MECHANISM']],
    [{ ELIGO_KAFKA_SASL_MECHANISM: 'oauthbearer' }, ['ELIGO_KAFKA_SASL_MECHANISM']],
  ])('rejects %j naming the variable', (env, names) => {
    const issues = issuesOf({ ...BROKERS, ...env });
    for (const name of names) expect(issues.join('\n')).toContain(name);
  });

  it('refuses a CA file with TLS off, naming both variables', () => {
    const caFile = file('ca.pem', CERT);
    const unset: Record<string, string> = {};
    for (const ssl of [unset, { ELIGO_KAFKA_SSL: 'false' }]) {
      expect(issuesOf({ ...BROKERS, ...ssl, ELIGO_KAFKA_SSL_CA_FILE: caFile })).toEqual([
        'ELIGO_KAFKA_SSL_CA_FILE is set but ELIGO_KAFKA_SSL is false: set ELIGO_KAFKA_SSL=true for TLS, ' +
          'or unset ELIGO_KAFKA_SSL_CA_FILE',
      ]);
    }
  });

  it('refuses a CA file that is missing, unreadable or holds no valid certificate, naming the variable', () => {
    const tls = { ...BROKERS, ELIGO_KAFKA_SSL: 'true' };
    const missing = join(dir, 'missing.pem');
    expect(issuesOf({ ...tls, ELIGO_KAFKA_SSL_CA_FILE: missing })).toEqual([
      `ELIGO_KAFKA_SSL_CA_FILE: cannot read ${missing} (ENOENT)`,
    ]);
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    expect(issuesOf({ ...tls, ELIGO_KAFKA_SSL_CA_FILE: folder })).toEqual([
      `ELIGO_KAFKA_SSL_CA_FILE: cannot read ${folder} (EISDIR)`,
    ]);
    const secret = file('secret.pem', CERT);
    chmodSync(secret, 0o000);
    if (process.getuid?.() !== 0) {
      expect(issuesOf({ ...tls, ELIGO_KAFKA_SSL_CA_FILE: secret })).toEqual([
        `ELIGO_KAFKA_SSL_CA_FILE: cannot read ${secret} (EACCES)`,
      ]);
    }
    const notPem = file('ca.der', 'not a certificate');
    expect(issuesOf({ ...tls, ELIGO_KAFKA_SSL_CA_FILE: notPem })).toEqual([
      `ELIGO_KAFKA_SSL_CA_FILE: ${notPem} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`,
    ]);
    const broken = file('broken.pem', `${CERT}\n${CERT.replace('MIIB', 'AAAA')}`);
    expect(issuesOf({ ...tls, ELIGO_KAFKA_SSL_CA_FILE: broken })).toEqual([
      `ELIGO_KAFKA_SSL_CA_FILE: certificate 2 of ${broken} is not a valid X.509 certificate`,
    ]);
  });

  it.each([
    [
      { ELIGO_KAFKA_SASL_MECHANISM: 'plain' },
      'ELIGO_KAFKA_SASL_MECHANISM=plain needs ELIGO_KAFKA_SASL_USERNAME and ELIGO_KAFKA_SASL_PASSWORD ' +
        '(or ELIGO_KAFKA_SASL_PASSWORD_FILE)',
    ],
    [
      { ELIGO_KAFKA_SASL_MECHANISM: 'scram-sha-256', ELIGO_KAFKA_SASL_PASSWORD: 'pw' },
      'ELIGO_KAFKA_SASL_MECHANISM=scram-sha-256 needs ELIGO_KAFKA_SASL_USERNAME',
    ],
    [
      { ELIGO_KAFKA_SASL_MECHANISM: 'scram-sha-512', ELIGO_KAFKA_SASL_USERNAME: 'eligo' },
      'ELIGO_KAFKA_SASL_MECHANISM=scram-sha-512 needs ELIGO_KAFKA_SASL_PASSWORD (or ELIGO_KAFKA_SASL_PASSWORD_FILE)',
    ],
    [
      { ELIGO_KAFKA_SASL_USERNAME: 'eligo', ELIGO_KAFKA_SASL_PASSWORD: 'pw' },
      'ELIGO_KAFKA_SASL_USERNAME and ELIGO_KAFKA_SASL_PASSWORD set without ELIGO_KAFKA_SASL_MECHANISM: set it ' +
        'to plain, scram-sha-256 or scram-sha-512, or unset them for no SASL',
    ],
    [
      { ELIGO_KAFKA_SASL_PASSWORD: 'pw' },
      'ELIGO_KAFKA_SASL_PASSWORD set without ELIGO_KAFKA_SASL_MECHANISM: set it to plain, scram-sha-256 or ' +
        'scram-sha-512, or unset them for no SASL',
    ],
    [
      { ...SASL, ELIGO_KAFKA_SASL_PASSWORD_FILE: '/run/secrets/kafka-password' },
      'ELIGO_KAFKA_SASL_PASSWORD and ELIGO_KAFKA_SASL_PASSWORD_FILE are both set: set one of them',
    ],
  ])('refuses the SASL settings %j', (env, issue) => {
    expect(issuesOf({ ...BROKERS, ...env })).toEqual([issue]);
  });

  it('refuses a password file that is missing or empty, naming the variable', () => {
    const sasl = { ...BROKERS, ELIGO_KAFKA_SASL_MECHANISM: 'plain', ELIGO_KAFKA_SASL_USERNAME: 'eligo' };
    const missing = join(dir, 'missing');
    expect(issuesOf({ ...sasl, ELIGO_KAFKA_SASL_PASSWORD_FILE: missing })).toEqual([
      `ELIGO_KAFKA_SASL_PASSWORD_FILE: cannot read ${missing} (ENOENT)`,
    ]);
    const empty = file('empty', '\n');
    expect(issuesOf({ ...sasl, ELIGO_KAFKA_SASL_PASSWORD_FILE: empty })).toEqual([
      `ELIGO_KAFKA_SASL_PASSWORD_FILE: ${empty} holds no password`,
    ]);
    // Without a mechanism, both problems at once.
    expect(issuesOf({ ELIGO_KAFKA_SASL_PASSWORD_FILE: missing })).toEqual([
      'ELIGO_KAFKA_SASL_PASSWORD_FILE set without ELIGO_KAFKA_SASL_MECHANISM: set it to plain, scram-sha-256 or ' +
        'scram-sha-512, or unset them for no SASL',
      `ELIGO_KAFKA_SASL_PASSWORD_FILE: cannot read ${missing} (ENOENT)`,
    ]);
  });

  it('reports every Kafka problem at once, with the other variables', () => {
    const issues = issuesOf({
      ELIGO_KAFKA_BROKERS: 'localhost',
      ELIGO_KAFKA_SSL_CA_FILE: '/etc/kafka/ca.pem',
      ELIGO_KAFKA_SASL_MECHANISM: 'plain',
    });
    expect(issues).toHaveLength(3);
    expect(issues[0]).toContain('ELIGO_KAFKA_BROKERS');
    expect(issues[1]).toContain('ELIGO_KAFKA_SSL_CA_FILE is set but ELIGO_KAFKA_SSL is false');
    expect(issues[2]).toContain('ELIGO_KAFKA_SASL_MECHANISM=plain needs');
  });
});

describe('Kafka settings in --print-config', () => {
  it('masks the password whole, and shows the files and the mechanism', () => {
    const caFile = file('ca.pem', CERT);
    const passwordFile = file('password', 'from-the-file-0123\n');
    const fromFile = maskConfig(
      loadConfig({
        ...BROKERS,
        ELIGO_KAFKA_SSL: 'true',
        ELIGO_KAFKA_SSL_CA_FILE: caFile,
        ELIGO_KAFKA_SASL_MECHANISM: 'scram-sha-512',
        ELIGO_KAFKA_SASL_USERNAME: 'eligo',
        ELIGO_KAFKA_SASL_PASSWORD_FILE: passwordFile,
      }),
    ) as { kafka: { security: unknown } };
    expect(fromFile.kafka.security).toEqual({
      ssl: true,
      caFile,
      ca: '<1 PEM certificate(s)>',
      sasl: { mechanism: 'scram-sha-512', username: 'eligo', password: '****', passwordFile },
    });
    const text = JSON.stringify(fromFile);
    expect(text).not.toContain('from-the-file');
    expect(text).not.toContain('0123'); // not even the end of it
    expect(text).not.toContain('BEGIN CERTIFICATE');

    const fromVariable = JSON.stringify(maskConfig(loadConfig({ ...BROKERS, ...SASL })));
    expect(fromVariable).toContain('"password":"****"');
    expect(fromVariable).not.toContain('staple');
    expect(fromVariable).not.toContain('correct horse');
  });
});
