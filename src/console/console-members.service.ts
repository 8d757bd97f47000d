import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ActivityOrigin } from '../activity/activity-log';
import { MEMBER_ROLES, mayManageMembers, MemberRole } from '../members/member-role';
import { MemberRow } from '../members/members.repository';
import { SSO_NEW_MEMBER_ROLES } from '../members/member-sso';
import { MemberSso, SsoForm } from '../members/member-sso.service';
import { MemberPasskeys } from '../members/member-passkeys';
import { FactorSetup, MembersService } from '../members/members.service';
import { ConsolePage } from './console-answers';
import { ConsolePasskeys } from './console-passkeys';
import { ConsoleSessions, ConsoleVisit } from './console-sessions';

/** What the Members page shows once besides the list: a new invitation's link, or a refusal. */
interface MembersNotice {
  invited?: { email: string; link: string; emailed: boolean };
  error?: string;
}

/** What Your account shows once: a done change, a second factor to set up, new recovery codes, or a refusal. */
interface AccountNotice {
  done?: string;
  setup?: FactorSetup;
  recoveryCodes?: string[];
  error?: string;
}

/** What the Single sign-on page shows once: a saved change, or a refusal with the form as sent. */
interface SsoNotice {
  done?: string;
  error?: string;
  form?: Omit<SsoForm, 'clientSecret'>;
}

/**
 * The Members, Single sign-on and Your account pages over MembersService and ConsoleSessions. A session signed in with a key has
 * no account page and manages no members; a member who is not an owner or admin manages none: the forbidden page.
 */
@Injectable()
export class ConsoleMembersService {
  constructor(
    private readonly members: MembersService,
    private readonly sessions: ConsoleSessions,
    private readonly sso: MemberSso,
    private readonly passkeys: MemberPasskeys,
    private readonly ceremonies: ConsolePasskeys,
  ) {}

  private memberOf(visit: ConsoleVisit): MemberRow {
    if (visit.member === null) throw new ConsolePage('forbidden', { role: visit.user.role }, 403);
    return visit.member;
  }

  private managerOf(visit: ConsoleVisit): MemberRow {
    const member = this.memberOf(visit);
    if (!mayManageMembers(member.role)) throw new ConsolePage('forbidden', { role: member.role }, 403);
    return member;
  }

  async membersPage(visit: ConsoleVisit, notice: MembersNotice) {
    const manager = this.managerOf(visit);
    const roles = manager.role === 'owner' ? MEMBER_ROLES : MEMBER_ROLES.filter((role) => role !== 'owner');
    return { members: await this.members.list(manager.userId), roles, self: manager.id, invited: null, error: null, ...notice };
  }

  async invite(visit: ConsoleVisit, origin: ActivityOrigin, email: string, role: MemberRole) {
    const manager = this.managerOf(visit);
    const invited = await this.members.invite(origin, manager.role, manager.userId, email, role);
    if ('error' in invited) throw new ConsolePage('members', await this.membersPage(visit, { error: invited.error }), 400);
    return this.membersPage(visit, { invited: { email, link: invited.link, emailed: this.members.emailsInvitations } });
  }

  /** A change of another member; their sessions end at once (a new role takes a new sign-in, and a new session id). */
  async change(
    visit: ConsoleVisit,
    origin: ActivityOrigin,
    memberId: string,
    kind: 'role' | 'disable' | 'remove',
    role: MemberRole | null,
  ): Promise<void> {
    const manager = this.managerOf(visit);
    const refused =
      kind === 'role'
        ? await this.members.changeRole(origin, manager, memberId, role as MemberRole)
        : kind === 'disable'
          ? await this.members.disable(origin, manager, memberId)
          : await this.members.remove(origin, manager, memberId);
    if (refused) throw new ConsolePage('members', await this.membersPage(visit, { error: refused.error }), 400);
    await this.sessions.endMemberSessions(origin, { id: memberId, userId: manager.userId }, { except: memberId === manager.id ? visit.sessionId : null });
  }

  /** The account's single sign-on as set (never its secret), with the address to register at the provider. */
  async ssoPage(visit: ConsoleVisit, redirectUri: string, notice: SsoNotice) {
    const manager = this.managerOf(visit);
    const settings = await this.sso.settings(manager.userId);
    const form = notice.form ?? {
      issuer: settings?.issuer ?? '',
      clientId: settings?.clientId ?? '',
      domains: settings?.domains.join(', ') ?? '',
      newMemberRole: settings?.newMemberRole ?? 'viewer',
      required: settings?.required ?? false,
    };
    return { redirectUri, secretSet: settings !== null, roles: SSO_NEW_MEMBER_ROLES, done: null, error: null, ...notice, form };
  }

  async saveSso(visit: ConsoleVisit, origin: ActivityOrigin, redirectUri: string, form: SsoForm) {
    const manager = this.managerOf(visit);
    const refused = await this.sso.save(origin, manager.userId, form);
    const { clientSecret: _secret, ...shown } = form;
    if (refused) throw new ConsolePage('single-sign-on', await this.ssoPage(visit, redirectUri, { error: refused.error, form: shown }), 400);
    return this.ssoPage(visit, redirectUri, { done: 'Single sign-on is saved.' });
  }

  async accountPage(visit: ConsoleVisit, notice: AccountNotice) {
    const member = this.memberOf(visit);
    return {
      // Not `member`: every page's model names the signed-in member so for the navigation (pageModel), without the address.
      account: { email: member.email, displayName: member.displayName, role: member.role, recoveryCodesLeft: member.recoveryCodeHashes.length },
      sessions: await this.sessions.memberSessions(member.id, visit.sessionId),
      passkeys: await this.passkeys.list(member.id),
      done: null,
      setup: null,
      recoveryCodes: null,
      error: null,
      ...notice,
    };
  }

  async changePassword(visit: ConsoleVisit, current: string, next: string) {
    const refused = await this.members.changePassword(this.memberOf(visit), current, next);
    if (refused) throw new ConsolePage('account', await this.accountPage(visit, refused), 400);
    return this.accountPage(visit, { done: 'Your password is changed.' });
  }

  async startFactorReset(visit: ConsoleVisit) {
    return this.accountPage(visit, { setup: await this.members.startFactorReset(this.memberOf(visit)) });
  }

  async confirmFactorReset(visit: ConsoleVisit, origin: ActivityOrigin, code: string) {
    const member = this.memberOf(visit);
    const reset = await this.members.confirmFactorReset(origin, member, code);
    if ('error' in reset) {
      const setup = (await this.members.pendingFactor(member)) ?? undefined;
      throw new ConsolePage('account', await this.accountPage(visit, { error: reset.error, setup }), 400);
    }
    return this.accountPage(visit, {
      recoveryCodes: reset.recoveryCodes,
      done: 'Your second factor is reset: the old one and its recovery codes no longer work.',
    });
  }

  passkeyOptions(request: FastifyRequest, visit: ConsoleVisit) {
    return this.ceremonies.registrationOptions(request, visit, this.memberOf(visit));
  }

  /** Adds the passkey the browser made: from now on it signs the member in alone. */
  async addPasskey(request: FastifyRequest, visit: ConsoleVisit, origin: ActivityOrigin, name: string, credential: string) {
    const refused = await this.ceremonies.register(request, visit, this.memberOf(visit), origin, name, credential);
    if (refused) throw new ConsolePage('account', await this.accountPage(visit, refused), 400);
    return this.accountPage(visit, { done: 'Your passkey is added: it signs you in without your password or code.' });
  }

  async removePasskey(visit: ConsoleVisit, origin: ActivityOrigin, passkeyId: string): Promise<void> {
    await this.passkeys.remove(origin, this.memberOf(visit), passkeyId);
  }

  /** Ends one of the member's sessions; true when it was this one (then signed out here too). */
  async endSession(request: FastifyRequest, reply: FastifyReply, visit: ConsoleVisit, origin: ActivityOrigin, handle: string): Promise<boolean> {
    const member = this.memberOf(visit);
    const current = (await this.sessions.memberSessions(member.id, visit.sessionId)).some((session) => session.current && session.handle === handle);
    await this.sessions.endMemberSessions(origin, member, { handle });
    if (current) await this.sessions.signOut(request, reply, visit);
    return current;
  }

  async endOtherSessions(visit: ConsoleVisit, origin: ActivityOrigin): Promise<void> {
    await this.sessions.endMemberSessions(origin, this.memberOf(visit), { except: visit.sessionId });
  }
}
