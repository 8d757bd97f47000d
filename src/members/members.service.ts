import { Injectable } from '@nestjs/common';
import { ActivityEntry, ActivityLog, ActivityOrigin } from '../activity/activity-log';
import type { OperatorChange } from '../auth/api-keys.service';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { AuthRepository } from '../auth/auth.repository';
import type { KeyMode } from '../auth/key-mode';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { looksLikeEmail, normaliseEmail } from '../people/email-address';
import { hashInvitationToken, invitationExpiresAt, invitationState, newInvitationToken } from '../people/invitation-token';
import { hashPassword, passwordMatches } from '../people/password-hash';
import { PASSWORD_REFUSAL_MESSAGES, passwordRefusal } from '../people/password-policy';
import { newRecoveryCodes, spendRecoveryCode } from '../people/recovery-codes';
import { acceptedTotpStep, newTotpSecret, totpUri } from '../people/totp';
import { totpQrDataUrl } from '../people/totp-qr-code';
import { WebhookSecrets } from '../secrets/webhook-secrets';
import { consoleLinkBase, InvitationMail } from './invitation-mail';
import { MEMBER_CHANGE_MESSAGES, MemberChange, memberChangeRefusal, MemberRole } from './member-role';
import { memberCaller, TestModeSettings } from './member-side';
import { MemberRow, MembersRepository } from './members.repository';

/** The name authenticator apps show beside the person's address. */
const TOTP_ISSUER = 'Licence Verification';
const MAX_DISPLAY_NAME = 100;

/** A refusal in the words a person reads. */
export interface Refused {
  error: string;
}

/** What a person scans or types to set up a second factor. */
export interface FactorSetup {
  qrDataUrl: string;
  secret: string;
}

/** A member's console session as it stands: the member, and the account's caller it acts as. */
export interface MemberHolder {
  member: MemberRow;
  user: AuthenticatedUser;
  rateLimitPerSecond: number | null;
}

/** A member of the list on the Members page. */
export interface ListedMember {
  id: string;
  email: string;
  displayName: string | null;
  role: MemberRole;
  status: MemberRow['status'];
  lastSignInAt: string | null;
}

const refused = (error: string): Refused => ({ error });

const activeOwners = (members: readonly MemberRow[]): number => members.filter((member) => member.role === 'owner' && member.status === 'active').length;

/**
 * People of a partner's account (issue 41): invitations, joining, sign-in checks, roles and status. Decisions are
 * the pure functions of src/people and member-role.ts; this class reads and writes the members table through
 * MembersRepository and logs each change in the account's activity log, in the change's transaction.
 */
@Injectable()
export class MembersService {
  private readonly publicBaseUrl: string;
  private readonly testMode: TestModeSettings;

  constructor(
    private readonly repository: MembersRepository,
    private readonly accounts: AuthRepository,
    private readonly secrets: WebhookSecrets,
    private readonly activity: ActivityLog,
    private readonly mail: InvitationMail,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {
    this.publicBaseUrl = consoleLinkBase(config);
    this.testMode = { enabled: config.get('TEST_MODE_ENABLED'), quota: config.get('TEST_MODE_QUOTA') };
  }

  /**
   * Invites `email` to user `userId` with `role`: the one-time link, shown once to the inviter (and e-mailed when
   * SMTP_URL is set). `inviter` null: the operator (the admin command, the operator console), who may invite anyone
   * (the first owner), and whose log entry `alongside` writes in the invitation's transaction.
   */
  async invite(
    origin: ActivityOrigin,
    inviter: MemberRole | null,
    userId: string,
    email: string,
    role: MemberRole,
    alongside?: OperatorChange['alongside'],
  ): Promise<{ link: string } | Refused> {
    const address = normaliseEmail(email);
    if (!looksLikeEmail(address)) return refused('Enter an e-mail address such as name@example.com.');
    const { token, hash } = newInvitationToken();
    const expiresAt = invitationExpiresAt(this.clock.now(), this.config.get('INVITATION_HOURS'));
    const outcome = await this.repository.transaction(async (manager): Promise<string | Refused> => {
      if (inviter !== null) {
        const members = await this.repository.lockAccount(manager, userId);
        const refusal = memberChangeRefusal(inviter, { kind: 'invite', role }, activeOwners(members));
        if (refusal !== null) return refused(MEMBER_CHANGE_MESSAGES[refusal]);
      }
      const memberId = await this.repository.insertInvited(manager, { userId, email: address, role, invitationHash: hash, expiresAt });
      if (memberId === null) return refused('This account already has a member with that e-mail address.');
      const event: ActivityEntry = {
        userId,
        action: 'member.invited',
        target: { type: 'member', id: memberId },
        changes: { email: { old: null, new: address }, role: { old: null, new: role } },
      };
      await this.activity.append(origin, event, manager);
      await alongside?.(manager, event);
      return memberId;
    });
    if (typeof outcome !== 'string') return outcome;
    const link = `${this.publicBaseUrl}/console/join/${token}`;
    await this.mail.send(address, link, role);
    return { link };
  }

  /** Whether invitations are e-mailed too (SMTP_URL is set). */
  get emailsInvitations(): boolean {
    return this.mail.sends;
  }

  /** The invited member a link's token names while it is open; null for an unknown, used or expired link. */
  private async invited(token: string): Promise<MemberRow | null> {
    const member = await this.repository.byInvitation(hashInvitationToken(token));
    if (!member?.invitationExpiresAt) return null;
    return invitationState(member.invitationExpiresAt, null, this.clock.now()) === 'open' ? member : null;
  }

  /** What the invitation page shows: the form for name and password, then the second factor's setup; null for a dead link. */
  async joinStage(token: string): Promise<{ stage: 'password'; email: string } | ({ stage: 'factor'; email: string } & FactorSetup) | null> {
    const member = await this.invited(token);
    if (!member) return null;
    if (member.passwordHash === null || member.totpSecret === null) return { stage: 'password', email: member.email };
    return { stage: 'factor', email: member.email, ...(await this.factorSetup(member.email, this.secrets.open(member.totpSecret))) };
  }

  /** Takes the invited member's name and password and makes their TOTP secret; null for a dead link. */
  async setJoinDetails(token: string, displayName: string, password: string): Promise<Refused | null> {
    const member = await this.invited(token);
    if (!member) return refused('This invitation link has expired or was used already. Ask for a new one.');
    const name = displayName.trim();
    if (name.length === 0 || name.length > MAX_DISPLAY_NAME) return refused(`Enter your name (at most ${MAX_DISPLAY_NAME} characters).`);
    const problem = passwordRefusal(password, [member.email, name]);
    if (problem !== null) return refused(PASSWORD_REFUSAL_MESSAGES[problem]);
    const details = { displayName: name, passwordHash: await hashPassword(password), totpSecret: this.secrets.seal(newTotpSecret()) };
    return (await this.repository.setJoinDetails(member.id, details)) ? null : refused('This invitation was used already.');
  }

  /** The first code confirms the second factor: the member becomes active, with ten recovery codes to show once. */
  async confirmJoin(
    token: string,
    code: string,
    origin: Omit<ActivityOrigin, 'actor'>,
  ): Promise<{ member: MemberRow; recoveryCodes: string[] } | Refused> {
    const member = await this.invited(token);
    if (!member?.totpSecret) return refused('This invitation link has expired or was used already. Ask for a new one.');
    const step = acceptedTotpStep(this.secrets.open(member.totpSecret), code, this.clock.now().getTime(), null);
    if (step === null) return refused('That code is not right. Enter the six digits your app shows now.');
    const { codes, hashes } = newRecoveryCodes();
    const joined = await this.repository.transaction(async (manager) => {
      if (!(await this.repository.activate(manager, member.id, step, hashes))) return false;
      const memberOrigin = { ...origin, actor: { type: 'member' as const, id: member.id } };
      const target = { type: 'member', id: member.id };
      await this.activity.append(memberOrigin, { userId: member.userId, action: 'member.joined', target }, manager);
      await this.activity.append(
        memberOrigin,
        { userId: member.userId, action: 'member.factor_added', target, changes: { factor: { old: null, new: 'totp' } } },
        manager,
      );
      return true;
    });
    return joined ? { member, recoveryCodes: codes } : refused('This invitation was used already.');
  }

  /**
   * The active member whose address and password these are, or null. Each account the address is a member of is
   * tried, most recently used first; an address with no member costs one hash check all the same.
   */
  async passwordHolder(email: string, password: string): Promise<MemberRow | null> {
    const candidates = await this.repository.activeByEmail(normaliseEmail(email));
    if (candidates.length === 0) {
      await passwordMatches(null, password);
      return null;
    }
    for (const member of candidates) if (await passwordMatches(member.passwordHash, password)) return member;
    return null;
  }

  /** The member an address names first, for the log of a failed sign-in; undefined when it names none. */
  async firstWithEmail(email: string): Promise<MemberRow | undefined> {
    return (await this.repository.activeByEmail(normaliseEmail(email)))[0];
  }

  /**
   * Whether `code` is the member's second factor now: a TOTP code newer than the last one used (taken, so that it
   * works once), or one of their recovery codes (spent).
   */
  async secondFactorMatches(memberId: string, code: string): Promise<boolean> {
    const member = await this.repository.byId(memberId);
    if (member?.status !== 'active' || member.totpSecret === null) return false;
    const step = acceptedTotpStep(this.secrets.open(member.totpSecret), code, this.clock.now().getTime(), member.totpLastStep);
    if (step !== null) return this.repository.takeTotpStep(memberId, step);
    const left = spendRecoveryCode(member.recoveryCodeHashes, code);
    return left !== null && this.repository.replaceRecoveryCodes(memberId, member.recoveryCodeHashes, left);
  }

  async recordSignIn(member: MemberRow, origin: ActivityOrigin): Promise<void> {
    await this.repository.recordSignIn(member.id, this.clock.now());
    await this.activity.append(origin, { userId: member.userId, action: 'member.signed_in', target: { type: 'member', id: member.id } });
  }

  async recordFailedSignIn(member: MemberRow, origin: ActivityOrigin, stage: 'password' | 'second factor' | 'passkey'): Promise<void> {
    await this.activity.append(origin, {
      userId: member.userId,
      action: 'member.sign_in_failed',
      target: { type: 'member', id: member.id },
      changes: { stage: { old: null, new: stage } },
    });
  }

  /**
   * The caller a member's session acts as on `side` of the account (memberCaller), while the member is active and the
   * account not disabled; null otherwise, or when the session cannot stand on that side.
   */
  async sessionHolder(memberId: string, side: KeyMode = 'live'): Promise<MemberHolder | null> {
    const member = await this.repository.byId(memberId);
    if (member?.status !== 'active') return null;
    const account = await this.accounts.memberAccount(member.userId);
    if (!account || account.disabled) return null;
    const user = memberCaller(member, account, side, this.testMode);
    return user && { member, user, rateLimitPerSecond: account.rateLimitPerSecond };
  }

  /** Makes the test side of the member's account, if it has none yet, for the console's Test mode switch. */
  async makeTestSide(member: Pick<MemberRow, 'userId'>): Promise<void> {
    await this.accounts.testSide(member.userId);
  }

  async list(userId: string): Promise<ListedMember[]> {
    return (await this.repository.list(userId)).map(({ id, email, displayName, role, status, lastSignInAt }) => ({
      id,
      email,
      displayName,
      role,
      status,
      lastSignInAt: lastSignInAt?.toISOString() ?? null,
    }));
  }

  /**
   * Display names of the account's members, removed ones too, by id. `userId` may be the account's test side, whose
   * records its live user's members make through the Test mode switch.
   */
  async displayNames(userId: string): Promise<Map<string, string>> {
    const liveUserId = await this.accounts.liveUserOf(userId);
    return liveUserId === undefined ? new Map() : this.repository.displayNames(liveUserId);
  }

  /** Changes a member's role; a refusal's words, or null when done. */
  changeRole(origin: ActivityOrigin, actor: MemberRow, memberId: string, role: MemberRole): Promise<Refused | null> {
    return this.change(origin, actor, memberId, (target) => ({ kind: 'change-role', from: target.role, to: role }));
  }

  /** Disables a member: their sessions end at their next request (the caller ends them at once too). */
  disable(origin: ActivityOrigin, actor: MemberRow, memberId: string): Promise<Refused | null> {
    return this.change(origin, actor, memberId, (target) => ({ kind: 'disable', role: target.role }));
  }

  /** Removes a member; their row stays for the records they made. */
  remove(origin: ActivityOrigin, actor: MemberRow, memberId: string): Promise<Refused | null> {
    return this.change(origin, actor, memberId, (target) => ({ kind: 'remove', role: target.role }));
  }

  private change(origin: ActivityOrigin, actor: MemberRow, memberId: string, changeOf: (target: MemberRow) => MemberChange): Promise<Refused | null> {
    return this.repository.transaction(async (manager) => {
      const members = await this.repository.lockAccount(manager, actor.userId);
      const target = members.find((member) => member.id === memberId);
      // The actor's role as it is now, not as their session read it.
      const self = members.find((member) => member.id === actor.id && member.status === 'active');
      if (!target || !self) return refused('That member does not exist.');
      const change = changeOf(target);
      const refusal = memberChangeRefusal(self.role, change, activeOwners(members));
      if (refusal !== null) return refused(MEMBER_CHANGE_MESSAGES[refusal]);
      const entry = { userId: actor.userId, target: { type: 'member', id: memberId } };
      if (change.kind === 'change-role') {
        if (change.from === change.to) return null;
        await this.repository.setRole(manager, memberId, change.to);
        await this.activity.append(origin, { ...entry, action: 'member.role_changed', changes: { role: { old: change.from, new: change.to } } }, manager);
      } else if (change.kind === 'disable') {
        await this.repository.setStatus(manager, memberId, 'disabled');
        await this.activity.append(origin, { ...entry, action: 'member.disabled', changes: { status: { old: target.status, new: 'disabled' } } }, manager);
      } else {
        await this.repository.markRemoved(manager, memberId);
        await this.activity.append(origin, { ...entry, action: 'member.removed' }, manager);
      }
      return null;
    });
  }

  /** A member's own password change: the current one first, the new one by the policy. */
  async changePassword(member: MemberRow, current: string, next: string): Promise<Refused | null> {
    if (!(await passwordMatches(member.passwordHash, current))) return refused('Your current password is not right.');
    const problem = passwordRefusal(next, [member.email, member.displayName ?? '']);
    if (problem !== null) return refused(PASSWORD_REFUSAL_MESSAGES[problem]);
    await this.repository.setPassword(member.id, await hashPassword(next));
    return null;
  }

  /**
   * The operator's reset of a member's second factor (a lost phone): their TOTP and recovery codes are cleared, so
   * that they set a new factor after their password at their next sign-in; logged as member.factor_reset by the
   * operator, with the operators' log entry alongside. The member, or null when the account has no such member.
   * The caller ends their sessions.
   */
  async clearFactor(
    change: OperatorChange,
    userId: string,
    which: { memberId: string } | { email: string },
  ): Promise<{ id: string; userId: string } | null> {
    const target = 'email' in which ? { email: normaliseEmail(which.email) } : which;
    return this.repository.transaction(async (manager) => {
      const cleared = await this.repository.clearFactor(manager, userId, target);
      if (!cleared) return null;
      // A passkey signs in alone, so a reset for a lost or stolen device takes the member's passkeys too.
      const passkeysRemoved = await this.repository.removeAllPasskeys(manager, cleared.id);
      const event: ActivityEntry = {
        userId,
        action: 'member.factor_reset',
        target: { type: 'member', id: cleared.id },
        changes: {
          factor: { old: cleared.hadTotp ? 'totp' : null, new: null },
          ...(passkeysRemoved > 0 && { passkeys: { old: passkeysRemoved, new: 0 } }),
        },
      };
      await this.activity.append(change.origin, event, manager);
      await change.alongside?.(manager, event);
      return { id: cleared.id, userId: cleared.userId };
    });
  }

  /** Starts a reset of the member's second factor: a new secret, pending until its first code confirms it. */
  async startFactorReset(member: MemberRow): Promise<FactorSetup> {
    const secret = newTotpSecret();
    await this.repository.setPendingFactor(member.id, this.secrets.seal(secret));
    return this.factorSetup(member.email, secret);
  }

  /** The pending secret's setup again (a form refused), or null when no reset is pending. */
  async pendingFactor(member: MemberRow): Promise<FactorSetup | null> {
    return member.totpPendingSecret === null ? null : this.factorSetup(member.email, this.secrets.open(member.totpPendingSecret));
  }

  /** Confirms the reset with the new secret's first code: the old factor and recovery codes stop working. */
  async confirmFactorReset(origin: ActivityOrigin, member: MemberRow, code: string): Promise<{ recoveryCodes: string[] } | Refused> {
    if (member.totpPendingSecret === null) return refused('Start the reset again.');
    const step = acceptedTotpStep(this.secrets.open(member.totpPendingSecret), code, this.clock.now().getTime(), null);
    if (step === null) return refused('That code is not right. Enter the six digits your app shows now.');
    const { codes, hashes } = newRecoveryCodes();
    const done = await this.repository.transaction(async (manager) => {
      if (!(await this.repository.confirmPendingFactor(manager, member.id, step, hashes))) return false;
      await this.activity.append(origin, { userId: member.userId, action: 'member.factor_reset', target: { type: 'member', id: member.id } }, manager);
      return true;
    });
    return done ? { recoveryCodes: codes } : refused('Start the reset again.');
  }

  private async factorSetup(email: string, secret: string): Promise<FactorSetup> {
    return { qrDataUrl: await totpQrDataUrl(totpUri(TOTP_ISSUER, email, secret)), secret };
  }
}
