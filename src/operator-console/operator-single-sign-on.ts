import { Injectable, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { consoleOrigin } from '../console/console-origin';
import { keepPending, NO_PENDING_SIGN_IN, PendingPlace, takePending } from '../console/console-single-sign-on';
import { OpenIdChecks, OpenIdFailure, OpenIdProvider, OpenIdSignIn } from '../people/openid-sign-in';
import { CLAIMS_REFUSAL_MESSAGES, domainAllowed, parseDomains, signedInEmail } from '../people/single-sign-on';
import { RedisStore } from '../redis/redis.module';
import { OperatorAccount, OperatorAccounts } from './operator-accounts';
import { OperatorLog } from './operator-log';
import type { OperatorRole } from './operator-role';

export const OPERATOR_SSO_CALLBACK_PATH = '/operator/sign-in/sso/callback';
/** A disabled operator's single sign-on: the provider vouched for them, so the refusal may say why. */
const DISABLED = 'Your operator account is disabled. Ask an operator to enable it.';
const PENDING: PendingPlace = { scope: 'operator-sso', cookie: '__Host-lvs_operator_sso' };

/**
 * Operators' single sign-on (issue 42) through the organisation's OpenID provider, as the settings give it
 * (OPERATOR_OIDC_*): the same flow as a partner's members (OpenIdSignIn, the same claim checks), for the e-mail
 * domains OPERATOR_OIDC_DOMAINS lists. A person new to the operators is made one with OPERATOR_OIDC_ROLE, and the
 * operators' log has it (by the new operator, from their address, naming the provider); a disabled operator is refused.
 */
@Injectable()
export class OperatorSingleSignOn {
  private readonly logger = new Logger('OperatorSingleSignOn');
  private readonly provider: OpenIdProvider | null;
  private readonly domains: string[];
  private readonly role: OperatorRole;
  private readonly publicUrl: string;

  constructor(
    private readonly redis: RedisStore,
    private readonly openId: OpenIdSignIn,
    private readonly accounts: OperatorAccounts,
    private readonly log: OperatorLog,
    config: AppConfig,
  ) {
    const issuer = config.get('OPERATOR_OIDC_ISSUER').replace(/\/+$/, '');
    this.provider =
      issuer === ''
        ? null
        : { issuer, clientId: config.get('OPERATOR_OIDC_CLIENT_ID'), clientSecret: config.get('OPERATOR_OIDC_CLIENT_SECRET'), namedBy: 'operator' };
    const domains = parseDomains(config.get('OPERATOR_OIDC_DOMAINS'));
    this.domains = Array.isArray(domains) ? domains : [];
    this.role = config.get('OPERATOR_OIDC_ROLE');
    this.publicUrl = config.get('OPERATOR_PUBLIC_URL');
  }

  /** Whether the sign-in page offers it. */
  get enabled(): boolean {
    return this.provider !== null;
  }

  private redirectUri(request: FastifyRequest): string {
    return `${consoleOrigin(this.publicUrl, request)}${OPERATOR_SSO_CALLBACK_PATH}`;
  }

  /** The first half: the provider's URL for an address of an allowed domain, or the refusal's words. */
  async start(request: FastifyRequest, reply: FastifyReply, email: string): Promise<{ url: string } | { error: string }> {
    if (this.provider === null) return { error: 'Single sign-on is not set up for operators.' };
    if (!domainAllowed(email, this.domains)) return { error: 'That e-mail domain does not sign in with single sign-on here. Sign in with your password.' };
    try {
      const { url, checks } = await this.openId.start(this.provider, this.redirectUri(request), email.trim());
      await keepPending(this.redis, PENDING, reply, checks);
      return { url };
    } catch (error) {
      return this.failed(error);
    }
  }

  /** The callback: the operator signed in (made first where new), or the refusal's words. */
  async finish(request: FastifyRequest, reply: FastifyReply): Promise<OperatorAccount | { error: string }> {
    const checks = await takePending<OpenIdChecks>(this.redis, PENDING, request, reply);
    const provider = this.provider;
    if (checks === null || provider === null) return { error: NO_PENDING_SIGN_IN };
    const redirectUri = this.redirectUri(request);
    let claims: Record<string, unknown>;
    try {
      claims = await this.openId.finish(provider, redirectUri, new URL(request.url, redirectUri), checks);
    } catch (error) {
      return this.failed(error);
    }
    const signedIn = signedInEmail(claims, this.domains);
    if ('refusal' in signedIn) return { error: CLAIMS_REFUSAL_MESSAGES[signedIn.refusal] };
    const name = typeof claims.name === 'string' && claims.name.trim() !== '' ? claims.name.trim().slice(0, 100) : signedIn.email;
    const operator = await this.accounts.ssoSignIn(signedIn.email, name, this.role, async (manager, made) => {
      const actor = { type: 'operator' as const, id: made.id, source: request.ip, userAgent: null };
      const changes = { email: { old: null, new: made.email }, role: { old: null, new: made.role }, issuer: { old: null, new: provider.issuer } };
      await this.log.append(actor, null, { action: 'operator.created_by_sso', userId: null, target: { type: 'operator', id: made.id }, changes }, manager);
      this.logger.log(`Operator ${made.id} made by single sign-on, role ${made.role}`);
    });
    return operator ?? { error: DISABLED };
  }

  private failed(error: unknown): { error: string } {
    if (!(error instanceof OpenIdFailure)) throw error;
    this.logger.warn(error.message);
    return { error: error.message };
  }
}
