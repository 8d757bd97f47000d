import { Injectable } from '@nestjs/common';
import * as client from 'openid-client';
import { AppConfig } from '../config/app-config';
import { guardedLookup } from '../network/guarded-lookup';
import { isLoopbackUrl } from './single-sign-on';

/** An OpenID provider as a partner (or the operators' settings) configured it; the secret in plain text, never logged. */
export interface OpenIdProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /**
   * Who named the issuer: a partner's is reached only at public addresses, as its webhook endpoints are (unless
   * WEBHOOK_ALLOW_PRIVATE_URLS), so that a partner's admin cannot make the service ask inside its own network.
   */
  namedBy: 'partner' | 'operator';
}

/** What the callback must see again: kept on the server between the redirect and the callback, used once. */
export interface OpenIdChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The provider's answer could not be had or did not hold: the flow ends, in words a person reads. */
export class OpenIdFailure extends Error {}

/** How long a provider's discovery document is used before it is read again. */
const DISCOVERY_TTL_MS = 5 * 60_000;
const MAX_CACHED_ISSUERS = 200;
/** Each request to a provider (discovery, token, UserInfo, its keys) gives up after this. */
const PROVIDER_TIMEOUT_S = 10;

/**
 * The authorization code flow with PKCE, state and nonce, through openid-client: the redirect to the provider, and
 * the callback's checks (state, the code exchanged with the verifier, the ID token's signature, issuer, audience,
 * expiry and nonce). Each issuer's discovery document is kept a few minutes, so that a sign-in's two halves and
 * sign-ins close together read it once. Plain HTTP is allowed for an issuer on this machine only.
 */
@Injectable()
export class OpenIdSignIn {
  private readonly discovered = new Map<string, { metadata: client.ServerMetadata; at: number }>();
  private readonly allowPrivate: boolean;
  private readonly dnsServers: readonly string[];
  private publicOnlyFetch: client.CustomFetch | undefined;

  constructor(config: AppConfig) {
    this.allowPrivate = config.get('WEBHOOK_ALLOW_PRIVATE_URLS');
    this.dnsServers = config.get('WEBHOOK_DNS_SERVERS');
  }

  /**
   * undici's fetch through the guarded lookup, for a partner's issuer; built at the first such sign-in, so that an
   * API without single sign-on never loads undici.
   */
  private fetchFor(provider: OpenIdProvider): client.CustomFetch | undefined {
    if (provider.namedBy === 'operator' || this.allowPrivate) return undefined;
    if (!this.publicOnlyFetch) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const undici = require('undici') as typeof import('undici');
      const dispatcher = new undici.Agent({ connect: { lookup: guardedLookup(this.dnsServers) } });
      this.publicOnlyFetch = (url, options) => undici.fetch(url, { ...options, dispatcher });
    }
    return this.publicOnlyFetch;
  }

  private async configuration(provider: OpenIdProvider): Promise<client.Configuration> {
    const issuer = new URL(provider.issuer);
    const insecure = issuer.protocol === 'http:' && isLoopbackUrl(issuer);
    const fetch = this.fetchFor(provider);
    const cached = this.discovered.get(provider.issuer);
    let metadata = cached && performance.now() - cached.at < DISCOVERY_TTL_MS ? cached.metadata : undefined;
    if (!metadata) {
      try {
        const found = await client.discovery(issuer, provider.clientId, undefined, undefined, {
          timeout: PROVIDER_TIMEOUT_S,
          execute: insecure ? [client.allowInsecureRequests] : [],
          ...(fetch && { [client.customFetch]: fetch }),
        });
        metadata = found.serverMetadata();
      } catch (error) {
        throw new OpenIdFailure(`The identity provider at ${provider.issuer} could not be reached or did not describe itself (${failureName(error)}).`);
      }
      if (this.discovered.size >= MAX_CACHED_ISSUERS) this.discovered.delete(this.discovered.keys().next().value as string);
      this.discovered.set(provider.issuer, { metadata, at: performance.now() });
    }
    const methods = metadata.token_endpoint_auth_methods_supported;
    const authentication =
      methods === undefined || methods.includes('client_secret_basic')
        ? client.ClientSecretBasic(provider.clientSecret)
        : client.ClientSecretPost(provider.clientSecret);
    const configuration = new client.Configuration(metadata, provider.clientId, undefined, authentication);
    configuration.timeout = PROVIDER_TIMEOUT_S;
    if (fetch) configuration[client.customFetch] = fetch;
    if (insecure) client.allowInsecureRequests(configuration);
    return configuration;
  }

  /** The provider's authorization URL for this sign-in, and the checks its callback needs. */
  async start(provider: OpenIdProvider, redirectUri: string, loginHint: string): Promise<{ url: string; checks: OpenIdChecks }> {
    const configuration = await this.configuration(provider);
    const checks = { state: client.randomState(), nonce: client.randomNonce(), codeVerifier: client.randomPKCECodeVerifier() };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
      login_hint: loginHint,
    });
    return { url: url.href, checks };
  }

  /**
   * The callback: `callbackUrl` as the browser brought it back. The ID token's claims, with the UserInfo answer's
   * where the ID token carries no address (providers put the email scope's claims in either).
   */
  async finish(provider: OpenIdProvider, redirectUri: string, callbackUrl: URL, checks: OpenIdChecks): Promise<Record<string, unknown>> {
    const configuration = await this.configuration(provider);
    // The callback as the provider was told it (the configured public address), with the query the browser brought.
    const current = new URL(redirectUri);
    current.search = callbackUrl.search;
    try {
      const tokens = await client.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      const claims: Record<string, unknown> = { ...tokens.claims() };
      if (claims.email === undefined)
        Object.assign(claims, await client.fetchUserInfo(configuration, tokens.access_token, claims.sub as string), { sub: claims.sub });
      return claims;
    } catch (error) {
      throw new OpenIdFailure(`Single sign-on did not complete (${failureName(error)}). Try again.`);
    }
  }
}

/** An error's kind and code for the person's page and the log: never a message that could echo a token or secret. */
function failureName(error: unknown): string {
  if (error instanceof client.AuthorizationResponseError) return `the provider answered ${error.error}`;
  if (error instanceof client.ResponseBodyError) return `the provider answered ${error.error}`;
  if (error instanceof Error) return 'code' in error && typeof error.code === 'string' ? error.code : error.name;
  return 'unknown error';
}
