// A real OpenID provider for the OAuth tests: panva's oidc-provider 9 (installed by
// scripts/install_peers.py into .cache/peers/oidc-provider), on 127.0.0.1 only.
//
//   node provider.mjs --peer DIR --port N --keys FILE [--access-ttl S] [--scope-mode resource|client]
//       [--extra FILE]
//
// DIR is the npm folder holding node_modules/oidc-provider (tests run it from elsewhere).
//
// What it is set up for (tests/support/oidc_provider.py starts it):
// - dynamic client registration (RFC 7591), PKCE (always), the dev login and consent pages (any login
//   name and password are accepted), RFC 7009 revocation;
// - resource indicators (RFC 8707): any `http://127.0.0.1:PORT/mcp` is a resource server whose access
//   tokens are RS256 JWTs with `aud` = that URL, the scopes `mcp:tools mcp:admin`, living
//   `--access-ttl` seconds;
// - refresh tokens (with `offline_access`, which needs `prompt=consent`) that rotate: presenting a
//   rotated-out refresh token again revokes the whole grant, as the provider does by default;
// - `--scope-mode resource` (default): the MCP scopes are resource scopes only, so a registration
//   that names them in `scope` is refused (`invalid_client_metadata`); `client`: they are also
//   provider scopes, so a registration may name them and is then held to them.
// --extra: a JSON file of more configuration, merged in (objects key by key, anything else replaced),
// e.g. {"features": {"dPoP": {"enabled": true}}, "clients": [...]} for tests of other client
// authentication methods.
// Keys: the signing key is read from `--keys` (made there on first start), so a restarted provider
// (same port, clients and grants forgotten) signs with the key the MCP server already trusts.
//
// Prints `OIDC_PROVIDER_READY http://127.0.0.1:N` once listening, then one line per event the tests
// look at: `OIDC_EVENT <name> <detail>` (never a token). The dev pages' web-font import is removed
// from every HTML page, so a browser loading them never leaves this machine.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    keys: { type: 'string' },
    'access-ttl': { type: 'string', default: '60' },
    'scope-mode': { type: 'string', default: 'resource' },
    peer: { type: 'string' },
    extra: { type: 'string' },
  },
});

function merge(base, extra) {
  for (const [key, value] of Object.entries(extra)) {
    const plain = value && typeof value === 'object' && !Array.isArray(value);
    const into = base[key] && typeof base[key] === 'object' && !Array.isArray(base[key]);
    base[key] = plain && into ? merge(base[key], value) : value;
  }
  return base;
}

const oidc = await import(pathToFileURL(join(args.peer, 'node_modules', 'oidc-provider', 'lib', 'index.js')).href);
const { default: Provider, errors } = oidc;

const MCP_SCOPES = ['mcp:tools', 'mcp:admin'];
const RESOURCE = /^http:\/\/127\.0\.0\.1:\d+\/mcp$/;
const accessTtl = Number(args['access-ttl']);

function signingKey(path) {
  if (path && existsSync(path)) return JSON.parse(readFileSync(path, 'utf8'));
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig', alg: 'RS256' };
  if (path) writeFileSync(path, JSON.stringify(jwk), { mode: 0o600 });
  return jwk;
}

function event(name, detail = '') {
  process.stdout.write(`OIDC_EVENT ${name} ${String(detail).replace(/\s+/g, ' ')}\n`);
}

const server = createServer();
await new Promise((resolve) => server.listen(Number(args.port), '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const configuration = {
  scopes: ['openid', 'offline_access', ...(args['scope-mode'] === 'client' ? MCP_SCOPES : [])],
  jwks: { keys: [signingKey(args.keys)] },
  cookies: { keys: ['oidc-test-cookie-key'] },
  pkce: { required: () => true },
  rotateRefreshToken: true,
  ttl: {
    AccessToken: accessTtl,
    AuthorizationCode: 120,
    Grant: 3600,
    Interaction: 600,
    RefreshToken: 3600,
    Session: 3600,
  },
  features: {
    devInteractions: { enabled: true },
    registration: { enabled: true },
    revocation: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: async (_ctx, _client, oneOf) => oneOf,
      useGrantedResource: async () => true,
      getResourceServerInfo: async (_ctx, resource) => {
        if (!RESOURCE.test(resource)) throw new errors.InvalidTarget();
        return {
          scope: MCP_SCOPES.join(' '),
          audience: resource,
          accessTokenTTL: accessTtl,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        };
      },
    },
  },
};
if (args.extra) merge(configuration, JSON.parse(readFileSync(args.extra, 'utf8')));
const provider = new Provider(issuer, configuration);
provider.proxy = false;

provider.use(async (ctx, next) => {
  await next();
  if (typeof ctx.body === 'string' && /html/.test(ctx.type)) {
    ctx.body = ctx.body.replace(/@import url\([^)]*\);?/g, '');
  }
});

provider.on('registration_create.success', (ctx, client) => event('registration', client.clientId));
provider.on('registration_create.error', (ctx, err) => event('registration_refused', `${err.error}: ${err.error_description}`));
provider.on('grant.success', (ctx) => event('grant', ctx.oidc.params.grant_type));
provider.on('grant.error', (ctx, err) => event('grant_refused', `${ctx.oidc.params?.grant_type} ${err.error}: ${err.error_description}`));
provider.on('grant.revoked', (ctx, grantId) => event('grant_revoked', grantId));
provider.on('authorization.error', (ctx, err) => event('authorization_refused', `${err.error}: ${err.error_description}`));
provider.on('revocation.success', () => event('revocation'));
provider.on('revocation.error', (ctx, err) => event('revocation_refused', err.error));
provider.on('server_error', (ctx, err) => event('server_error', err.message));

server.on('request', provider.callback());
process.stdout.write(`OIDC_PROVIDER_READY ${issuer}\n`);

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => process.exit(0));
}
