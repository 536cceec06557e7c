import { organizationsSsoV1 } from '@eligo/proto';
import {
  freePort,
  startFront,
  startProvider,
  type ProviderFront,
  type ProviderOptions,
  type RunningProvider,
} from './oidc-providers';
import { signInAtProvider } from '../../../test/support/oidc-sign-in';
import { failure, importFixtures, startOrganizations, type Harness, type Organization } from './support';

/**
 * StartSsoSignOn and FinishSsoSignOn against real OpenID providers (oidc-provider, each in its own process),
 * driven with plain HTTP through the provider's development sign-in and consent forms. The issuer is a front
 * that forwards to the real provider; the forgery and expiry cases swap the provider behind it for one that
 * signs with keys the issuer does not publish, or whose clock is two hours late. Keys are always read from the
 * real provider.
 */
const { SsoOutcome } = organizationsSsoV1;
const REDIRECT = 'http://127.0.0.1:1/sso/callback';
const SECRET = 'the-client-secret-of-the-sso-test';
const verificationId = (n: number) => n.toString(16).padStart(24, '0');

describe('single sign-on with an organization', () => {
  let h: Harness;
  let front: ProviderFront;
  let real: RunningProvider, forger: RunningProvider, late: RunningProvider;
  let stanford: Organization, springfield: Organization;

  beforeAll(async () => {
    const frontPort = await freePort();
    const issuer = `http://127.0.0.1:${frontPort}`;
    const options: ProviderOptions = {
      issuer,
      clients: [
        { client_id: 'eligo-sso', client_secret: SECRET, redirect_uris: [REDIRECT] },
        { client_id: 'eligo-public', redirect_uris: [REDIRECT] },
      ],
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        affiliation: ['eduPersonAffiliation'],
      },
      accounts: {
        sam: { email: 'sam@stanford.edu', email_verified: true, eduPersonAffiliation: ['member', 'Student'] },
        nora: { email: 'nora@stanford.edu', email_verified: true },
        fay: { email: 'fay@stanford.edu', email_verified: true, eduPersonAffiliation: 'faculty' },
        erin: { email: 'Erin@CS.Stanford.edu', email_verified: true },
        gail: { email: 'gail@gmail.com', email_verified: true },
        una: { email: 'una@stanford.edu', email_verified: false },
      },
    };
    [real, forger, late] = await Promise.all([
      startProvider(options),
      startProvider({ ...options, freshKeys: true }),
      startProvider({ ...options, clockOffsetSeconds: -2 * 3600 }),
    ]);
    front = await startFront(frontPort, real.port);
    h = await startOrganizations({ ELIGO_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8' });
    [stanford, springfield] = (await importFixtures(h, [
      { name: 'Stanford University', domains: ['stanford.edu'] },
      { name: 'Springfield College', domains: ['springfield.edu'] },
    ])) as [Organization, Organization];
    // Stanford: a confidential client and a claim rule; Springfield: a public client and the email rule.
    await h.client.unary('setOrganizationSso', {
      organizationId: stanford.id,
      issuer,
      clientId: 'eligo-sso',
      clientSecret: SECRET,
      scopes: ['email', 'affiliation'],
      rule: {
        claims: [{ claim: 'eduPersonAffiliation', anyOf: ['student'] }],
        emailDomainInOrganization: false,
      },
    });
    await setSpringfieldDomains(['stanford.edu']);
  }, 120_000);
  afterEach(() => {
    front.target = real.port;
  });
  afterAll(async () => {
    await h?.stop();
    await front?.close();
    await Promise.all([real, forger, late].map((p) => p?.stop()));
  });

  /** Springfield's email rule, with the catalog domains the test wants (SSO settings unchanged). */
  async function setSpringfieldDomains(domains: string[]) {
    await h.db.table('organizations').where({ id: springfield.id }).update({ domains });
    await h.client.unary('setOrganizationSso', {
      organizationId: springfield.id,
      issuer: front.url,
      clientId: 'eligo-public',
      clientSecret: '',
      scopes: ['email'],
      rule: { claims: [], emailDomainInOrganization: true },
    });
  }

  const start = (organizationId: number, n: number) =>
    h.client.unary('startSsoSignOn', {
      organizationId,
      verificationId: verificationId(n),
      redirectUri: REDIRECT,
    });
  const stateOf = (url: string) => new URL(url).searchParams.get('state')!;
  const finish = (state: string, callbackUrl: string) =>
    h.client.unary('finishSsoSignOn', { state, callbackUrl });

  /** A whole sign-on: start, the person at the provider, finish. */
  async function signOn(organizationId: number, login: string, n = 1) {
    const { authorizationUrl } = await start(organizationId, n);
    const callback = await signInAtProvider(authorizationUrl, login, REDIRECT);
    return finish(stateOf(authorizationUrl), callback);
  }

  it('starts an authorization code flow with PKCE S256, a random state and nonce, bound to the verification', async () => {
    const { authorizationUrl, expiresAt } = await start(stanford.id, 7);
    const url = new URL(authorizationUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${front.url}/auth`);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toEqual({
      client_id: 'eligo-sso',
      response_type: 'code',
      redirect_uri: REDIRECT,
      scope: 'openid email affiliation',
      state: expect.stringMatching(/^[\w-]{43}$/),
      nonce: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: 'S256',
    });
    expect(expiresAt!.getTime() - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(expiresAt!.getTime() - Date.now()).toBeLessThanOrEqual(10 * 60_000 + 5_000);
    // Stored: the state's HMAC, the nonce and verifier encrypted, bound to the verification and redirect URI.
    const rows = (await h.db.table('sso_sign_ons').where({ verification_id: verificationId(7) })) as Record<
      string,
      unknown
    >[];
    expect(rows).toHaveLength(1);
    const stored = Buffer.concat(Object.values(rows[0]!).map((v) => Buffer.from(String(v))));
    const raw = Buffer.concat(
      Object.values(rows[0]!).filter((v): v is Buffer => Buffer.isBuffer(v)),
    ).toString('latin1');
    for (const secret of [params.state!, params.nonce!]) {
      expect(stored.includes(Buffer.from(secret))).toBe(false);
      expect(raw).not.toContain(secret);
    }
    expect(rows[0]).toMatchObject({ organization_id: String(stanford.id), redirect_uri: REDIRECT });
  });

  it('a student signs in: ELIGIBLE, for the verification that started it', async () => {
    const finished = await signOn(stanford.id, 'sam', 11);
    expect(finished).toEqual({
      verificationId: verificationId(11),
      organizationId: stanford.id,
      outcome: SsoOutcome.SSO_OUTCOME_ELIGIBLE,
      reason: "the organization's rule holds",
    });
  });

  it('a person without the claim, or with another value: INELIGIBLE', async () => {
    expect(await signOn(stanford.id, 'nora')).toMatchObject({
      outcome: SsoOutcome.SSO_OUTCOME_INELIGIBLE,
      reason: 'the provider gave no claim eduPersonAffiliation (a string or strings)',
    });
    const faculty = await signOn(stanford.id, 'fay');
    expect(faculty).toMatchObject({
      outcome: SsoOutcome.SSO_OUTCOME_INELIGIBLE,
      reason: 'the claim eduPersonAffiliation has none of the accepted values',
    });
    expect(faculty.reason).not.toContain('faculty');
  });

  it("the email rule: a verified email at one of the organization's domains or under one", async () => {
    expect(await signOn(springfield.id, 'erin')).toMatchObject({ outcome: SsoOutcome.SSO_OUTCOME_ELIGIBLE });
    expect(await signOn(springfield.id, 'gail')).toMatchObject({
      outcome: SsoOutcome.SSO_OUTCOME_INELIGIBLE,
      reason: "the email address is not at one of the organization's domains",
    });
    expect(await signOn(springfield.id, 'una')).toMatchObject({
      outcome: SsoOutcome.SSO_OUTCOME_INELIGIBLE,
      reason: 'the provider says the email address is not verified',
    });
    await setSpringfieldDomains(['springfield.edu']);
    expect(await signOn(springfield.id, 'erin')).toMatchObject({
      outcome: SsoOutcome.SSO_OUTCOME_INELIGIBLE,
    });
    await setSpringfieldDomains(['stanford.edu']);
  });

  it('a state is used once: a second finish is NOT_FOUND', async () => {
    const { authorizationUrl } = await start(stanford.id, 12);
    const callback = await signInAtProvider(authorizationUrl, 'sam', REDIRECT);
    await expect(finish(stateOf(authorizationUrl), callback)).resolves.toMatchObject({
      outcome: SsoOutcome.SSO_OUTCOME_ELIGIBLE,
    });
    const again = await failure(finish(stateOf(authorizationUrl), callback));
    expect([again.codeName, again.errorIds]).toEqual(['NOT_FOUND', []]);
  });

  it('an ID token signed with keys the issuer does not publish (forged): FAILED', async () => {
    front.target = forger.port;
    const finished = await signOn(stanford.id, 'sam', 13);
    expect(finished).toMatchObject({
      verificationId: verificationId(13),
      outcome: SsoOutcome.SSO_OUTCOME_FAILED,
    });
    expect(finished.reason).toMatch(/^the sign-on was refused: .*(key|signature)/i);
  });

  it('an expired ID token: FAILED', async () => {
    front.target = late.port;
    const finished = await signOn(stanford.id, 'sam');
    expect(finished.outcome).toBe(SsoOutcome.SSO_OUTCOME_FAILED);
    expect(finished.reason).toMatch(/exp/);
  });

  it('an ID token with another nonce than the sign-on sent: FAILED', async () => {
    const { authorizationUrl } = await start(stanford.id, 14);
    const tampered = new URL(authorizationUrl);
    tampered.searchParams.set('nonce', 'a-nonce-of-another-sign-on-entirely');
    const callback = await signInAtProvider(tampered.href, 'sam', REDIRECT);
    const finished = await finish(stateOf(authorizationUrl), callback);
    expect(finished).toMatchObject({
      verificationId: verificationId(14),
      outcome: SsoOutcome.SSO_OUTCOME_FAILED,
    });
    expect(finished.reason).toMatch(/nonce/);
  });

  it("the state of sign-on A with the code of sign-on B: FAILED, and B's state still finishes nothing else", async () => {
    const a = await start(stanford.id, 15);
    const b = await start(stanford.id, 16);
    const callbackB = new URL(await signInAtProvider(b.authorizationUrl, 'sam', REDIRECT));
    callbackB.searchParams.set('state', stateOf(a.authorizationUrl));
    const finished = await finish(stateOf(a.authorizationUrl), callbackB.href);
    expect(finished).toMatchObject({
      verificationId: verificationId(15),
      outcome: SsoOutcome.SSO_OUTCOME_FAILED,
    });
    // The callback's state must be the sign-on's own, too.
    const other = await start(stanford.id, 17);
    const mismatched = await finish(stateOf(other.authorizationUrl), callbackB.href);
    expect(mismatched.outcome).toBe(SsoOutcome.SSO_OUTCOME_FAILED);
    expect(mismatched.reason).toMatch(/state/);
  });

  it('a person who cancels at the provider: FAILED with the OAuth error code only', async () => {
    const { authorizationUrl } = await start(stanford.id, 18);
    const state = stateOf(authorizationUrl);
    const callback = `${REDIRECT}?error=access_denied&error_description=Jane+Doe+said+no&state=${state}&iss=${encodeURIComponent(front.url)}`;
    const finished = await finish(state, callback);
    expect(finished.outcome).toBe(SsoOutcome.SSO_OUTCOME_FAILED);
    expect(finished.reason).toMatch(/error access_denied/);
    expect(finished.reason).not.toContain('Jane');
  });

  it('a sign-on finished more than 10 minutes after its start: FAILED, and used up', async () => {
    const { authorizationUrl } = await start(stanford.id, 19);
    const callback = await signInAtProvider(authorizationUrl, 'sam', REDIRECT);
    await h.db
      .table('sso_sign_ons')
      .where({ verification_id: verificationId(19) })
      .update({ expires_at: new Date(Date.now() - 1000) });
    await expect(finish(stateOf(authorizationUrl), callback)).resolves.toEqual({
      verificationId: verificationId(19),
      organizationId: stanford.id,
      outcome: SsoOutcome.SSO_OUTCOME_FAILED,
      reason: 'the sign-on lapsed: it must finish within 10 minutes of its start',
    });
    expect((await failure(finish(stateOf(authorizationUrl), callback))).codeName).toBe('NOT_FOUND');
  });

  it('keeps the newest five sign-ons of a verification', async () => {
    const urls: string[] = [];
    for (let i = 0; i < 7; i += 1) urls.push((await start(stanford.id, 20)).authorizationUrl);
    expect(await h.db.table('sso_sign_ons').where({ verification_id: verificationId(20) })).toHaveLength(5);
    expect((await failure(finish(stateOf(urls[0]!), `${REDIRECT}?code=x`))).codeName).toBe('NOT_FOUND');
  });

  it('a provider that is down: the finish FAILED, a start UNAVAILABLE once its discovery is not cached', async () => {
    const { authorizationUrl } = await start(stanford.id, 21);
    const callback = await signInAtProvider(authorizationUrl, 'sam', REDIRECT);
    front.target = undefined;
    const finished = await finish(stateOf(authorizationUrl), callback);
    expect(finished.outcome).toBe(SsoOutcome.SSO_OUTCOME_FAILED);
    expect(finished.reason).toMatch(/provider/);
    // A changed setting is discovered afresh.
    await setSpringfieldDomains(['stanford.edu']);
    const err = await failure(start(springfield.id, 22));
    expect(err.codeName).toBe('UNAVAILABLE');
  });
});
