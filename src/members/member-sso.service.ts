import { Injectable, Logger } from '@nestjs/common';
import { ActivityLog, ActivityOrigin } from '../activity/activity-log';
import { AppConfig } from '../config/app-config';
import { OpenIdChecks, OpenIdFailure, OpenIdProvider, OpenIdSignIn } from '../people/openid-sign-in';
import { CLAIMS_REFUSAL_MESSAGES, emailDomain, issuerUrlRefusal, parseDomains, signedInEmail } from '../people/single-sign-on';
import { WebhookSecrets } from '../secrets/webhook-secrets';
import { MemberRole } from './member-role';
import { signInRefused, SignInMethod, ssoChanges, ssoMayGive, ssoMemberStep, SsoSettings } from './member-sso';
import { MemberRow, MembersRepository, SsoRow } from './members.repository';
import type { Refused } from './members.service';

/** The Single sign-on page's form as typed: a blank secret keeps the one set. */
export interface SsoForm {
  issuer: string;
  clientId: string;
  clientSecret: string;
  domains: string;
  newMemberRole: MemberRole;
  required: boolean;
}

/** A sign-in sent to the provider: whose account, and what its callback must see again. */
export interface PendingSsoSignIn {
  userId: string;
  checks: OpenIdChecks;
}

/** A password (or passkey) sign-in refused because the member's organisation requires single sign-on. */
export class SingleSignOnRequired extends Error {
  constructor() {
    super('Your organisation signs in with single sign-on only. Use “Sign in with single sign-on” below, with your work e-mail address.');
  }
}

const MAX_NAME = 100;
const refused = (error: string): Refused => ({ error });

const settingsOf = ({ issuer, clientId, domains, newMemberRole, required }: SsoRow): SsoSettings => ({
  issuer,
  clientId,
  domains,
  newMemberRole,
  required,
});

/**
 * Single sign-on of a partner's members (issue 41) through the account's own OpenID provider: its settings, set by
 * owners and admins and logged as sso.changed; the sign-in's two halves (the redirect, found by the e-mail
 * domain; the callback, which finds or makes the member); and whether an account refuses other ways in.
 */
@Injectable()
export class MemberSso {
  private readonly logger = new Logger('SingleSignOn');
  /** Outside production, a provider on this machine may speak plain HTTP (development, tests). */
  private readonly loopbackHttp: boolean;

  constructor(
    private readonly repository: MembersRepository,
    private readonly secrets: WebhookSecrets,
    private readonly activity: ActivityLog,
    private readonly openId: OpenIdSignIn,
    config: AppConfig,
  ) {
    this.loopbackHttp = config.get('NODE_ENV') !== 'production';
  }

  /** The account's settings, without the secret: whether one is set is all a page shows. */
  async settings(userId: string): Promise<(SsoSettings & { secretSet: true }) | null> {
    const row = await this.repository.sso(userId);
    return row ? { ...settingsOf(row), secretSet: true } : null;
  }

  /** Whether the account refuses this way of signing in to its members (a password or passkey while SSO is required). */
  async refuses(userId: string, method: SignInMethod): Promise<boolean> {
    const row = await this.repository.sso(userId);
    return signInRefused(method, row ? settingsOf(row) : null);
  }

  /** Saves the account's settings (an owner's or admin's form); a refusal's words, or null when saved. */
  async save(origin: ActivityOrigin, userId: string, form: SsoForm): Promise<Refused | null> {
    const issuer = form.issuer.replace(/\/+$/, '');
    const issuerProblem = issuerUrlRefusal(issuer, this.loopbackHttp);
    if (issuerProblem !== null) return refused(issuerProblem);
    if (form.clientId === '') return refused('Enter the client id your identity provider gave.');
    const domains = parseDomains(form.domains);
    if (!Array.isArray(domains)) return refused(domains.error);
    if (!ssoMayGive(form.newMemberRole)) return refused('Single sign-on cannot make anyone an owner: choose another role.');
    return this.repository.transaction(async (manager) => {
      const taken = await this.repository.ssoDomainsTaken(manager, userId, domains);
      if (taken.length > 0)
        return refused(
          `${taken.join(', ')} ${taken.length === 1 ? 'is' : 'are'} already used for single sign-on by another organisation. Ask support if the domain is yours.`,
        );
      const before = await this.repository.sso(userId, manager, true);
      if (!before && form.clientSecret === '') return refused('Enter the client secret your identity provider gave.');
      const after: SsoSettings = { issuer, clientId: form.clientId, domains, newMemberRole: form.newMemberRole, required: form.required };
      const clientSecret = form.clientSecret === '' ? (before as SsoRow).clientSecret : this.secrets.seal(form.clientSecret);
      const changes = ssoChanges(before ? settingsOf(before) : null, after, form.clientSecret !== '');
      if (Object.keys(changes).length === 0) return null;
      await this.repository.saveSso(manager, { ...after, userId, clientSecret });
      await this.activity.append(origin, { userId, action: 'sso.changed', target: { type: 'sso', id: userId }, changes }, manager);
      return null;
    });
  }

  /** The first half: the account whose single sign-on allows the address's domain, and its provider's URL. */
  async start(email: string, redirectUri: string): Promise<{ url: string; pending: PendingSsoSignIn } | Refused> {
    const domain = emailDomain(email);
    if (domain === null) return refused('Enter your work e-mail address, such as name@example.com.');
    const row = await this.repository.ssoOfDomain(domain);
    if (!row) return refused(`No organisation signs in with single sign-on for ${domain}. Sign in with your password.`);
    try {
      const { url, checks } = await this.openId.start(this.provider(row), redirectUri, email.trim());
      return { url, pending: { userId: row.userId, checks } };
    } catch (error) {
      return this.failed(error);
    }
  }

  /**
   * The second half: the provider's answer checked, the address verified and of an allowed domain, the member
   * found or made. A person new to the account becomes an active member with the configured role, and one invited
   * joins (member.joined, by themselves); a disabled or removed member is refused.
   */
  async finish(pending: PendingSsoSignIn, redirectUri: string, callbackUrl: URL, origin: Omit<ActivityOrigin, 'actor'>): Promise<MemberRow | Refused> {
    const row = await this.repository.sso(pending.userId);
    if (!row) return refused('Single sign-on is no longer set up for your organisation.');
    let claims: Record<string, unknown>;
    try {
      claims = await this.openId.finish(this.provider(row), redirectUri, callbackUrl, pending.checks);
    } catch (error) {
      return this.failed(error);
    }
    const signedIn = signedInEmail(claims, row.domains);
    if ('refusal' in signedIn) return refused(CLAIMS_REFUSAL_MESSAGES[signedIn.refusal]);
    const name = typeof claims.name === 'string' && claims.name.trim() !== '' ? claims.name.trim().slice(0, MAX_NAME) : null;
    return this.repository.transaction(async (manager): Promise<MemberRow | Refused> => {
      const found = await this.repository.newestWithEmail(manager, row.userId, signedIn.email);
      const step = ssoMemberStep(found);
      if (step === 'refuse-disabled' || step === 'refuse-removed')
        return refused('Your membership of this organisation is disabled or was removed. Ask an owner or admin of your organisation.');
      if (step === 'sign-in') return found as MemberRow;
      const member =
        step === 'create'
          ? await this.repository.insertSsoMember(manager, { userId: row.userId, email: signedIn.email, displayName: name, role: row.newMemberRole })
          : (await this.repository.activateBySso(manager, (found as MemberRow).id, name))
            ? ((await this.repository.byId((found as MemberRow).id, manager)) ?? null)
            : null;
      if (member === null) return refused('Single sign-on did not complete. Try again.');
      await this.activity.append(
        { ...origin, actor: { type: 'member', id: member.id } },
        { userId: member.userId, action: 'member.joined', target: { type: 'member', id: member.id }, changes: { via: { old: null, new: 'sso' } } },
        manager,
      );
      return member;
    });
  }

  private provider(row: SsoRow): OpenIdProvider {
    return { issuer: row.issuer, clientId: row.clientId, clientSecret: this.secrets.open(row.clientSecret), namedBy: 'partner' };
  }

  private failed(error: unknown): Refused {
    if (!(error instanceof OpenIdFailure)) throw error;
    this.logger.warn(error.message);
    return refused(error.message);
  }
}
