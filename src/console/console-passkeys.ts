import { Injectable } from '@nestjs/common';
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ActivityOrigin } from '../activity/activity-log';
import { requestOrigin } from '../auth/activity-origin';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { MemberPasskeys } from '../members/member-passkeys';
import { MemberSso, SingleSignOnRequired } from '../members/member-sso.service';
import { MemberRow } from '../members/members.repository';
import { MembersService, Refused } from '../members/members.service';
import { PasskeyChallenges } from '../people/passkey-challenges';
import { parseCredential, passkeyAuthenticationOptions, relyingParty, RelyingParty } from '../people/passkeys';
import { SignInLimiter } from '../people/sign-in-limiter';
import { consoleOrigin } from './console-origin';
import { ConsoleSessions, ConsoleVisit, MEMBER_SCOPE } from './console-sessions';

/** The name the browser shows for the site when it offers or makes a passkey. */
const RELYING_PARTY_NAME = 'Licence Verification console';

/**
 * Passkeys in the console: the WebAuthn ceremonies' challenges (PasskeyChallenges: a sign-in's under the sign-in
 * form's token, a new passkey's under the session), and a member's sign-in with a passkey
 * alone: it is both factors. The relying party is the console's origin (PUBLIC_BASE_URL, else the request's own), its
 * host name the relying party's id.
 */
@Injectable()
export class ConsolePasskeys {
  private readonly publicBaseUrl: string;

  constructor(
    private readonly challenges: PasskeyChallenges,
    private readonly sessions: ConsoleSessions,
    private readonly members: MembersService,
    private readonly passkeys: MemberPasskeys,
    private readonly limiter: SignInLimiter,
    private readonly sso: MemberSso,
    config: AppConfig,
  ) {
    this.publicBaseUrl = config.get('PUBLIC_BASE_URL');
  }

  private party(request: FastifyRequest): RelyingParty {
    return relyingParty(consoleOrigin(this.publicBaseUrl, request), RELYING_PARTY_NAME);
  }

  /** A sign-in's options, for the sign-in form's script; its challenge waits under the form's token. */
  async signInOptions(request: FastifyRequest, sentToken: unknown): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const token = this.sessions.checkSignInForm(request, sentToken);
    const options = await passkeyAuthenticationOptions(this.party(request));
    await this.challenges.keep('console', 'sign-in', token, options.challenge);
    return options;
  }

  /**
   * A member's sign-in with a passkey: the form's challenge taken, the attempt counted as a password's is (429
   * beyond the limits; the e-mail address's count is the passkey member's), then the signature checked. Right, the
   * member's session starts as after a password and code; wrong, false, and logged when the passkey names a member.
   * A right passkey of a member whose organisation requires single sign-on throws SingleSignOnRequired.
   */
  async signIn(request: FastifyRequest, reply: FastifyReply, sentToken: unknown, credential: string): Promise<boolean> {
    const token = this.sessions.checkSignInForm(request, sentToken);
    const challenge = await this.challenges.take('console', 'sign-in', token);
    const response = parseCredential<AuthenticationResponseJSON>(credential);
    const passkey = response === null ? undefined : await this.passkeys.signInPasskey(response);
    const holder = passkey === undefined ? null : await this.members.sessionHolder(passkey.memberId);
    const attempt = { scope: MEMBER_SCOPE, address: request.ip, email: holder?.member.email ?? `passkey ${response?.id ?? ''}` };
    if ((await this.limiter.count(attempt)) > 0) throw new ApiError('TOO_MANY_SIGN_INS');
    if (holder === null || passkey === undefined || response === null) return false;
    const origin = requestOrigin({ type: 'member', id: holder.member.id }, request);
    if (challenge === null || !(await this.passkeys.signedBy(this.party(request), passkey, response, challenge))) {
      await this.members.recordFailedSignIn(holder.member, origin, 'passkey');
      return false;
    }
    if (await this.sso.refuses(holder.member.userId, 'passkey')) throw new SingleSignOnRequired();
    await this.limiter.forgive(attempt);
    await this.sessions.startMemberSession(request, reply, holder.member, origin);
    return true;
  }

  /** A new passkey's options, for Your account's script; its challenge waits under the session. */
  async registrationOptions(request: FastifyRequest, visit: ConsoleVisit, member: MemberRow): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const options = await this.passkeys.registrationOptions(this.party(request), member);
    await this.challenges.keep('console', 'registration', visit.sessionId, options.challenge);
    return options;
  }

  /** Adds the passkey the browser made with the session's challenge (taken); a refusal's words, or null. */
  async register(
    request: FastifyRequest,
    visit: ConsoleVisit,
    member: MemberRow,
    origin: ActivityOrigin,
    name: string,
    credential: string,
  ): Promise<Refused | null> {
    const challenge = await this.challenges.take('console', 'registration', visit.sessionId);
    return this.passkeys.register(origin, this.party(request), member, name, parseCredential(credential), challenge);
  }
}
