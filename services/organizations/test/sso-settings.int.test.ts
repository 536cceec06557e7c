import { failure, importFixtures, startOrganizations, type Harness, type Organization } from './support';

/**
 * An organization's OpenID Connect client through SetOrganizationSso, GetOrganizationSso and
 * DeleteOrganizationSso: what is checked, what is answered (never the secret) and how it is stored.
 */
describe('organization single sign-on settings', () => {
  let h: Harness;
  let stanford: Organization, oxford: Organization;
  const secret = 'the-client-secret-of-stanford';
  const settings = () => ({
    organizationId: stanford.id,
    issuer: 'https://login.stanford.edu',
    clientId: 'eligo',
    clientSecret: secret,
    scopes: ['email', 'affiliation'],
    rule: {
      claims: [{ claim: 'eduPersonAffiliation', anyOf: ['student', 'member'] }],
      emailDomainInOrganization: true,
    },
  });

  beforeAll(async () => {
    h = await startOrganizations({ ELIGO_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8' });
    [stanford, oxford] = (await importFixtures(h, [
      { name: 'Stanford University', domains: ['stanford.edu'] },
      { name: 'University of Oxford', country: 'GB' },
    ])) as [Organization, Organization];
  });
  afterAll(async () => {
    await h?.stop();
  });

  const storedRow = async () =>
    (await h.db.table('organization_sso').where({ organization_id: stanford.id }).first()) as {
      client_secret_encrypted: Buffer | null;
      scopes: string[];
      rule: unknown;
    };

  it('stores the client and answers it without its secret, openid first among the scopes', async () => {
    const { sso } = await h.client.unary('setOrganizationSso', settings());
    const expected = {
      organizationId: stanford.id,
      issuer: 'https://login.stanford.edu',
      clientId: 'eligo',
      hasClientSecret: true,
      scopes: ['openid', 'email', 'affiliation'],
      rule: settings().rule,
      updatedAt: expect.any(Date),
    };
    expect(sso).toEqual(expected);
    expect(JSON.stringify(sso)).not.toContain(secret);
    const got = await h.client.unary('getOrganizationSso', { organizationId: stanford.id });
    expect(got.sso).toEqual(expected);
    expect(JSON.stringify(got)).not.toContain(secret);
  });

  it('keeps the secret encrypted at rest, and keeps it when a change leaves it out', async () => {
    const row = await storedRow();
    expect(row.client_secret_encrypted).toBeInstanceOf(Buffer);
    expect(row.client_secret_encrypted!.includes(Buffer.from(secret))).toBe(false);
    expect(row.client_secret_encrypted!.toString('latin1')).not.toContain('stanford');
    const changed = await h.client.unary('setOrganizationSso', {
      ...settings(),
      clientSecret: '',
      scopes: ['email'],
      rule: { claims: [], emailDomainInOrganization: true },
    });
    expect(changed.sso).toMatchObject({ hasClientSecret: true, scopes: ['openid', 'email'] });
    const after = await storedRow();
    expect(after.client_secret_encrypted).toEqual(row.client_secret_encrypted);
    expect(after.rule).toEqual({ claims: [], emailDomainInOrganization: true });
    // A new secret replaces it (encrypted again, with a new IV).
    await h.client.unary('setOrganizationSso', { ...settings(), clientSecret: 'another-secret' });
    expect((await storedRow()).client_secret_encrypted).not.toEqual(row.client_secret_encrypted);
  });

  it('a client without a secret is public', async () => {
    const { sso } = await h.client.unary('setOrganizationSso', {
      ...settings(),
      organizationId: oxford.id,
      clientSecret: '',
    });
    expect(sso?.hasClientSecret).toBe(false);
  });

  it('refuses bad settings as invalidRequest naming each field, and an empty rule', async () => {
    const err = await failure(
      h.client.unary('setOrganizationSso', {
        ...settings(),
        issuer: 'http://login.stanford.edu',
        clientId: '',
        scopes: ['email', 'two words'],
        rule: { claims: [], emailDomainInOrganization: false },
      }),
    );
    expect([err.codeName, err.errorIds]).toEqual(['INVALID_ARGUMENT', ['invalidRequest']]);
    expect(err.message).toBe(
      'issuer: must use https (http only for a non-public IP address inside ELIGO_WEBHOOK_ALLOW_CIDRS); ' +
        'clientId: must be 1 to 256 characters; ' +
        'scopes[1]: must be 1 to 64 printable ASCII characters without space, " or \\; ' +
        'rule: must check something: give at least one claim rule, or emailDomainInOrganization',
    );
    const noRule = await failure(h.client.unary('setOrganizationSso', { ...settings(), rule: undefined }));
    expect([noRule.codeName, noRule.message]).toEqual(['INVALID_ARGUMENT', 'rule: is required']);
    const blocked = await failure(
      h.client.unary('setOrganizationSso', { ...settings(), issuer: 'https://10.1.2.3' }),
    );
    expect(blocked.message).toBe('issuer: names a blocked address (private)');
  });

  it('takes plain http only for an address the allow list opens', async () => {
    const { sso } = await h.client.unary('setOrganizationSso', {
      ...settings(),
      organizationId: oxford.id,
      issuer: 'http://127.0.0.1:9',
    });
    expect(sso?.issuer).toBe('http://127.0.0.1:9');
  });

  it('answers NOT_FOUND noOrganization for an unknown organization', async () => {
    // Each call made when its turn comes: a failed call nobody awaits yet is an unhandled rejection.
    for (const call of [
      () => h.client.unary('setOrganizationSso', { ...settings(), organizationId: 999_999 }),
      () => h.client.unary('getOrganizationSso', { organizationId: 999_999 }),
      () => h.client.unary('deleteOrganizationSso', { organizationId: 0 }),
      () =>
        h.client.unary('startSsoSignOn', {
          organizationId: 999_999,
          verificationId: 'ab'.repeat(12),
          redirectUri: 'https://eligo.example.com/callback',
        }),
    ]) {
      const err = await failure(call());
      expect([err.codeName, err.errorIds]).toEqual(['NOT_FOUND', ['noOrganization']]);
    }
  });

  it('deletes it; then an organization without one is NOT_FOUND without an errorId', async () => {
    await h.client.unary('deleteOrganizationSso', { organizationId: oxford.id });
    for (const call of [
      () => h.client.unary('getOrganizationSso', { organizationId: oxford.id }),
      () => h.client.unary('deleteOrganizationSso', { organizationId: oxford.id }),
      () =>
        h.client.unary('startSsoSignOn', {
          organizationId: oxford.id,
          verificationId: 'ab'.repeat(12),
          redirectUri: 'https://eligo.example.com/callback',
        }),
    ]) {
      const err = await failure(call());
      expect([err.codeName, err.errorIds]).toEqual(['NOT_FOUND', []]);
    }
    expect(await h.db.table('organization_sso').where({ organization_id: oxford.id })).toEqual([]);
  });

  it('refuses a sign-on for a bad verification id or redirect URI before calling the provider', async () => {
    const start = (verificationId: string, redirectUri: string) =>
      failure(h.client.unary('startSsoSignOn', { organizationId: stanford.id, verificationId, redirectUri }));
    expect((await start('nope', 'https://eligo.example.com/cb')).message).toBe(
      'verificationId: must be 24 lowercase hex characters',
    );
    expect((await start('ab'.repeat(12), 'https://eligo.example.com/cb?x=1')).message).toBe(
      'redirectUri: must not have a query or fragment',
    );
  });

  it('answers UNAVAILABLE when the provider cannot be reached, and a finish of no sign-on NOT_FOUND', async () => {
    await h.client.unary('setOrganizationSso', {
      ...settings(),
      organizationId: oxford.id,
      issuer: 'http://127.0.0.1:9',
    });
    const err = await failure(
      h.client.unary('startSsoSignOn', {
        organizationId: oxford.id,
        verificationId: 'ab'.repeat(12),
        redirectUri: 'https://eligo.example.com/callback',
      }),
    );
    expect(err.codeName).toBe('UNAVAILABLE');
    expect(err.message).toMatch(/discovery failed: could not connect to the provider \(ECONNREFUSED\)/);
    expect(err.message).not.toContain('127.0.0.1');
    const none = await failure(
      h.client.unary('finishSsoSignOn', {
        state: 'x'.repeat(43),
        callbackUrl: 'https://eligo.example.com/cb',
      }),
    );
    expect(none.codeName).toBe('NOT_FOUND');
  });
});
