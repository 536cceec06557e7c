// A real OpenID provider for tests (the certified oidc-provider package), run as its own process: the
// package is an ES module, which jest's module loader cannot load. Configured by one JSON argument:
// { port, clients: [{ client_id, client_secret?, redirect_uris }], accounts: { <login>: { email, email_verified } } }.
// Its development sign-in form takes any login (the account id) and any password; an account the
// configuration does not list signs in without an email claim. Prints "ready <issuer>" when listening.
import Provider from 'oidc-provider';

const { port, clients, accounts } = JSON.parse(process.argv[2]);
const issuer = `http://127.0.0.1:${port}`;
const provider = new Provider(issuer, {
  clients: clients.map((c) => ({
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: c.client_secret ? 'client_secret_post' : 'none',
    ...c,
  })),
  claims: { openid: ['sub'], email: ['email', 'email_verified'] },
  async findAccount(_ctx, id) {
    const account = accounts[id];
    return {
      accountId: id,
      async claims() {
        return { sub: id, ...(account ?? {}) };
      },
    };
  },
  cookies: { keys: ['eligo-test-provider-cookie-key'] },
  features: { devInteractions: { enabled: true } },
  pkce: { required: () => true },
});
// Quiet: the provider's warnings about development keys and plain http are expected here.
provider.on('server_error', (_ctx, err) => console.error('provider error', err));
provider.listen(port, '127.0.0.1', () => console.log(`ready ${issuer}`));
