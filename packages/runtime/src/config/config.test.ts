import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './config';
import { maskConfig } from './mask';

describe('loadConfig', () => {
  it('applies the embedded defaults when nothing is set', () => {
    const c = loadConfig({});
    expect(c.http.port).toBe(8080);
    expect(c.http.publicBaseUrl).toBe('http://localhost:8080');
    expect(c.database.url).toBeUndefined();
    expect(c.kafka.brokers).toBeUndefined();
    expect(c.s3).toBeUndefined();
    expect(c.dataDir).toMatch(/\.eligo$/);
    expect(c.grpc.deadlineMs).toBe(5000);
    expect(c.shutdownDelayMs).toBe(5000);
    expect(c.outboxLingerMs).toBe(20);
    expect(loadConfig({ ELIGO_OUTBOX_LINGER_MS: '0' }).outboxLingerMs).toBe(0);
    expect(loadConfig({ ELIGO_SHUTDOWN_DELAY_MS: '0' }).shutdownDelayMs).toBe(0);
  });

  it('derives the public base URL from the port and strips a trailing slash from an explicit one', () => {
    expect(loadConfig({ ELIGO_HTTP_PORT: '9000' }).http.publicBaseUrl).toBe('http://localhost:9000');
    expect(loadConfig({ ELIGO_PUBLIC_BASE_URL: 'https://api.example.com/' }).http.publicBaseUrl).toBe(
      'https://api.example.com',
    );
  });

  it.each([
    [{ ELIGO_HTTP_PORT: 'abc' }, 'ELIGO_HTTP_PORT'],
    [{ ELIGO_HTTP_PORT: '70000' }, 'ELIGO_HTTP_PORT'],
    [{ ELIGO_DATABASE_URL: 'not a url' }, 'ELIGO_DATABASE_URL'],
    [{ ELIGO_ADMIN_TOKEN: 'short' }, 'ELIGO_ADMIN_TOKEN'],
    [{ ELIGO_S3_ENDPOINT: 'http://127.0.0.1:9000' }, 'ELIGO_S3_ACCESS_KEY'],
    [{ ELIGO_KAFKA_BROKERS: 'localhost' }, 'ELIGO_KAFKA_BROKERS'],
    [{ ELIGO_LOG_LEVEL: 'loud' }, 'ELIGO_LOG_LEVEL'],
    [{ ELIGO_KAFKA_FETCH_MIN_BYTES: '0' }, 'ELIGO_KAFKA_FETCH_MIN_BYTES'],
    [{ ELIGO_OUTBOX_LINGER_MS: '2000' }, 'ELIGO_OUTBOX_LINGER_MS'],
    [{ ELIGO_KAFKA_FETCH_MAX_WAIT_MS: '20000' }, 'ELIGO_KAFKA_FETCH_MAX_WAIT_MS'],
  ])('rejects %j naming the variable', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('switches each dependency to the real server when its variable is set', () => {
    const c = loadConfig({
      ELIGO_DATABASE_URL: 'postgres://u:p@db:5432/eligo',
      ELIGO_KAFKA_BROKERS: 'k1:9092, k2:9092',
      ELIGO_S3_ENDPOINT: 'http://minio:9000',
      ELIGO_S3_ACCESS_KEY: 'ak',
      ELIGO_S3_SECRET_KEY: 'sk',
      ELIGO_PROGRAMS_GRPC_ADDRESS: 'programs:9090',
    });
    expect(c.database.url).toBe('postgres://u:p@db:5432/eligo');
    expect(c.kafka.brokers).toEqual(['k1:9092', 'k2:9092']);
    // Fetches wait for events to gather (64 KiB or 100 ms) unless told otherwise.
    expect(c.kafka.fetch).toEqual({ minBytes: 65536, maxWaitMs: 100 });
    const eager = { ELIGO_KAFKA_FETCH_MIN_BYTES: '1', ELIGO_KAFKA_FETCH_MAX_WAIT_MS: '1000' };
    expect(loadConfig(eager).kafka.fetch).toEqual({ minBytes: 1, maxWaitMs: 1000 });
    expect(c.s3?.bucket).toBe('eligo');
    expect(c.grpc.addresses.programs).toBe('programs:9090');
    expect(c.grpc.addresses.verification).toBeUndefined();
  });

  it('reads the gRPC address of any module the entry point composes, not a list of its own', () => {
    const c = loadConfig({ ELIGO_BILLING_GRPC_ADDRESS: ' billing:9090 ', ELIGO_AUDIT_GRPC_ADDRESS: ' ' });
    expect(c.grpc.addresses).toEqual({ billing: 'billing:9090' });
  });

  it('reads internal call tokens from the variable or a mounted file, first one current', () => {
    const [a, b] = ['a'.repeat(32), 'b'.repeat(40)];
    expect(loadConfig({}).grpc.internalTokens).toEqual([]);
    expect(loadConfig({ ELIGO_INTERNAL_TOKEN: ` ${a} , ${b} ` }).grpc.internalTokens).toEqual([a, b]);
    const dir = mkdtempSync(join(tmpdir(), 'eligo-token-'));
    try {
      writeFileSync(join(dir, 'token'), `${b}\n`);
      const c = loadConfig({ ELIGO_INTERNAL_TOKEN_FILE: join(dir, 'token'), ELIGO_INTERNAL_TOKEN: a });
      expect(c.grpc.internalTokens).toEqual([b]);
      expect(() => loadConfig({ ELIGO_INTERNAL_TOKEN_FILE: join(dir, 'missing') })).toThrow(
        'ELIGO_INTERNAL_TOKEN_FILE: cannot read',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([['short'], ['x'.repeat(31)], [`${'x'.repeat(32)} y`], ['é'.repeat(40)]])(
    'refuses the internal token %j',
    (token) =>
      expect(() => loadConfig({ ELIGO_INTERNAL_TOKEN: token })).toThrow('ELIGO_INTERNAL_TOKEN: token 1'),
  );

  it('ignores variables outside the ELIGO_ prefix', () => {
    expect(loadConfig({ HTTP_PORT: '1' }).http.port).toBe(8080);
  });
});

describe('maskConfig', () => {
  it('masks secrets and URL passwords', () => {
    const c = loadConfig({
      ELIGO_ADMIN_TOKEN: 'eligo_admin_0123456789abcdefghij',
      ELIGO_DATABASE_URL: 'postgres://u:hunter2@db:5432/eligo',
      ELIGO_S3_ENDPOINT: 'http://minio:9000',
      ELIGO_S3_ACCESS_KEY: 'access-key',
      ELIGO_S3_SECRET_KEY: 'very-secret-key',
      ELIGO_INTERNAL_TOKEN: `internal_${'s'.repeat(32)}`,
    });
    const text = JSON.stringify(maskConfig(c));
    expect(text).not.toContain('s'.repeat(32));
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('very-secret-key');
    expect(text).not.toContain('eligo_admin_0123456789abcdefghij');
    expect(text).toContain('postgres://u:****@db:5432/eligo');
  });
});
