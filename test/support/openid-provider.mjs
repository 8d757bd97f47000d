// A real OpenID provider (oidc-provider) on loopback for the single sign-on tests, run as a child process: the
// package is ES modules only. Its settings come as JSON in the first argument; it prints its issuer on a line
// of its own once it listens. Its own login form (devInteractions) takes any login name: the accounts named in
// the settings have their claims, any other login is a verified address of its own. Consent is implied.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const { clientId, clientSecret, redirectUri, accounts } = JSON.parse(process.argv[2]);
const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
// Named localhost while the console is at 127.0.0.1: the provider is another site, as in production.
const issuer = `http://localhost:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  cookies: { keys: ['openid-provider-test-cookie-key'] },
  pkce: { required: () => true },
  features: { devInteractions: { enabled: true } },
  async findAccount(_ctx, id) {
    const claims = accounts[id] ?? { email: id, email_verified: true };
    return { accountId: id, claims: async () => ({ sub: id, ...claims }) };
  },
  async loadExistingGrant(ctx) {
    const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
    grant.addOIDCScope('openid email profile');
    await grant.save();
    return grant;
  },
});
server.on('request', provider.callback());
process.stdout.write(`${JSON.stringify({ issuer })}\n`);
