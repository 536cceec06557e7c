import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveAdminTarget } from './admin-client';

describe('resolveAdminTarget', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eligo-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prefers flags, then ELIGO_ADMIN_URL / ELIGO_ADMIN_TOKEN', () => {
    const env = { ELIGO_ADMIN_URL: 'http://env:1/', ELIGO_ADMIN_TOKEN: 'env-token' };
    expect(resolveAdminTarget({}, env)).toEqual({ baseUrl: 'http://env:1', token: 'env-token' });
    expect(resolveAdminTarget({ url: 'http://flag:2', token: 'flag-token' }, env)).toEqual({
      baseUrl: 'http://flag:2',
      token: 'flag-token',
    });
  });

  it('falls back to the public base URL, then localhost on ELIGO_HTTP_PORT', () => {
    const token = { ELIGO_ADMIN_TOKEN: 't' };
    expect(resolveAdminTarget({}, { ...token, ELIGO_PUBLIC_BASE_URL: 'https://eligo.example' }).baseUrl).toBe(
      'https://eligo.example',
    );
    expect(resolveAdminTarget({}, { ...token, ELIGO_HTTP_PORT: '9000' }).baseUrl).toBe(
      'http://localhost:9000',
    );
  });

  it('reads the token npm start generated in the data dir', () => {
    writeFileSync(join(dir, 'admin-token'), 'eligo_admin_from_file\n');
    expect(resolveAdminTarget({}, { ELIGO_DATA_DIR: dir }).token).toBe('eligo_admin_from_file');
  });

  it('names what to set when there is no token', () => {
    expect(() => resolveAdminTarget({}, { ELIGO_DATA_DIR: join(dir, 'missing') })).toThrow(
      /ELIGO_ADMIN_TOKEN/,
    );
  });
});
