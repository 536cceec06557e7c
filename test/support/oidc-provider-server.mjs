// A real OpenID provider for tests (the certified oidc-provider package), run as its own process: the
// package is an ES module, which jest's module loader cannot load. Configured by one JSON argument:
// { port, clients: [{ client_id, client_secret?, redirect_uris }], accounts: { <login>: { <claim>: value } },
//   claims?, issuer?, freshKeys?, clockOffsetSeconds? }.
// Its development sign-in form takes any login (the account id) and any password; an account carries any
// claims (email, email_verified, eduPersonAffiliation...), an account the configuration does not list signs in
// with none but `sub`. `claims` maps scopes to the claims they release (default: openid -> sub, email ->
// email and email_verified); `issuer` replaces the default http://127.0.0.1:<port> (a provider behind a front
// at another address). It signs with oidc-provider's development keys, the same in every process, unless
// `freshKeys` is true: then with an RSA key made at its start (a provider no one else trusts, to forge tokens).
// `clockOffsetSeconds` sets its clock off by that much (negative: in the past, to issue expired tokens).
// Prints "ready <issuer>" when listening.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import Provider from 'oidc-provider';

const {
  port,
  clients,
  accounts,
  claims,
  issuer: issuerOption,
  freshKeys,
  clockOffsetSeconds,
} = JSON.parse(process.argv[2]);
const issuer = issuerOption ?? `http://127.0.0.1:${port}`;
if (clockOffsetSeconds) {
  // oidc-provider reads the time from Date.now only (iat, exp, code and session lifetimes).
  const now = Date.now;
  Date.now = () => now() + clockOffsetSeconds * 1000;
}
const fresh = () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), use: 'sig', alg: 'RS256' }] };
};
const provider = new Provider(issuer, {
  clients: clients.map((c) => ({
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: c.client_secret ? 'client_secret_post' : 'none',
    ...c,
  })),
  claims: claims ?? { openid: ['sub'], email: ['email', 'email_verified'] },
  async findAccount(_ctx, id) {
    const account = accounts[id];
    return {
      accountId: id,
      async claims() {
        return { sub: id, ...(account ?? {}) };
      },
    };
  },
  ...(freshKeys ? { jwks: fresh() } : {}),
  cookies: { keys: ['eligo-test-provider-cookie-key'] },
  features: { devInteractions: { enabled: true } },
  pkce: { required: () => true },
});
// Quiet: the provider's warnings about development keys and plain http are expected here.
provider.on('server_error', (_ctx, err) => console.error('provider error', err));
provider.listen(port, '127.0.0.1', () => console.log(`ready ${issuer}`));
