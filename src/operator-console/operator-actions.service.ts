import { Injectable } from '@nestjs/common';
import { ApiKeysService, CreatedKey, OperatorChange } from '../auth/api-keys.service';
import { MemberSessions } from '../members/member-sessions';
import { MembersService, Refused } from '../members/members.service';
import { looksLikeEmail, normaliseEmail } from '../people/email-address';
import { OperatorActor, operatorOrigin } from './operator-actor';
import { OperatorAction, OperatorLog } from './operator-log';
import type { ActivityChanges } from '../activity/activity-chain';
import { UserDeletion, UserDeletionReport } from './user-deletion';

/** Who asks for a change, and why (null: no reason given, which only the admin command allows). */
export interface OperatorRequest {
  actor: OperatorActor;
  reason: string | null;
}

/** A partner the operator makes, with its plan (null: unlimited) and the address of its first owner. */
export interface NewPartner {
  name: string;
  quota: number | null;
  ownerEmail: string;
}

/** A key the operator issues: for a new partner with its plan, or for an existing one; a test key with `testModeQuota`. */
export interface KeyIssue {
  name: string;
  userId: string | null;
  quota: number | null;
  expiresAt: Date | null;
  testModeQuota?: number;
}

/**
 * The operator's actions on a partner, the one road of the admin command and the operator console. Each writes the
 * partner's activity event (actor: the operator, or `cli` with the OS user) and the operators' log entry, with its
 * reason, in the change's own transaction. Each answers false or null when there is no such partner or key.
 */
@Injectable()
export class OperatorActions {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly log: OperatorLog,
    private readonly deletion: UserDeletion,
    private readonly members: MembersService,
    private readonly memberSessions: MemberSessions,
  ) {}

  /**
   * A new partner with its plan, and its first owner's invitation (as the admin command's invite makes it): the
   * partner's log has the invitation by the operator, the operators' log the creation. The link is answered once.
   */
  async createPartner(request: OperatorRequest, partner: NewPartner): Promise<{ userId: string; link: string } | Refused> {
    const ownerEmail = normaliseEmail(partner.ownerEmail);
    if (!looksLikeEmail(ownerEmail)) return { error: 'Enter the owner’s e-mail address, such as name@example.com.' };
    const userId = await this.apiKeys.createUser(partner.name, partner.quota);
    const created = { name: { old: null, new: partner.name }, monthlyQuota: { old: null, new: partner.quota } };
    const invited = await this.members.invite(operatorOrigin(request.actor), null, userId, ownerEmail, 'owner', (manager, event) =>
      this.log.append(
        request.actor,
        request.reason,
        { action: 'account.created', userId, target: { type: 'account', id: userId }, changes: { ...created, ...event.changes } },
        manager,
      ),
    );
    return 'error' in invited ? invited : { userId, link: invited.link };
  }

  /**
   * Clears a member's second factor (TOTP and recovery codes: they set a new one after their password at their next
   * sign-in) and ends their console sessions at once; null when the partner has no such member.
   */
  async resetMemberFactor(
    request: OperatorRequest,
    userId: string,
    which: { memberId: string } | { email: string },
  ): Promise<{ memberId: string; sessionsEnded: number } | null> {
    const member = await this.members.clearFactor(this.change(request), userId, which);
    if (member === null) return null;
    const sessionsEnded = await this.memberSessions.end(operatorOrigin(request.actor), member, { exceptHandle: null });
    return { memberId: member.id, sessionsEnded };
  }

  setQuota(request: OperatorRequest, userId: string, quota: number | null): Promise<boolean> {
    return this.apiKeys.setQuota(userId, quota, this.change(request));
  }

  setRateLimit(request: OperatorRequest, userId: string, ratePerSecond: number | null): Promise<boolean> {
    return this.apiKeys.setRateLimit(userId, ratePerSecond, this.change(request));
  }

  setWatchLimit(request: OperatorRequest, userId: string, watchLimit: number | null): Promise<boolean> {
    return this.apiKeys.setWatchLimit(userId, watchLimit, this.change(request));
  }

  setLiveLookupLimit(request: OperatorRequest, userId: string, liveLookupLimit: number | null): Promise<boolean> {
    return this.apiKeys.setLiveLookupLimit(userId, liveLookupLimit, this.change(request));
  }

  setDisabled(request: OperatorRequest, userId: string, disabled: boolean): Promise<{ disabledAt: string | null } | null> {
    return this.apiKeys.setDisabled(userId, disabled, this.change(request));
  }

  issueKey(request: OperatorRequest, issue: KeyIssue): Promise<CreatedKey> {
    const { userId, ...rest } = issue;
    return this.apiKeys.createKey({ ...rest, userId: userId ?? undefined }, this.change(request));
  }

  revokeKey(request: OperatorRequest, keyId: string): Promise<boolean> {
    return this.apiKeys.revokeKey(keyId, this.change(request));
  }

  /**
   * Deletes the partner as `delete-user` does (UserDeletion), then forgets it in the operators' log and logs the
   * deletion with what was deleted: no account is left to keep an event of it, and no row is left naming it.
   */
  async deletePartner(request: OperatorRequest, userId: string): Promise<UserDeletionReport | null> {
    const report = await this.deletion.delete(userId);
    if (report === null) return null;
    const changes: ActivityChanges = Object.fromEntries(
      Object.entries(report.deleted).map(([kind, count]: [string, number]) => [kind, { old: count, new: 0 }]),
    );
    await this.log.forgetPartner(userId);
    await this.log.appendDeletion(request.actor, request.reason, userId, changes);
    return report;
  }

  /** The account's change, with the operators' log entry written alongside its event. */
  private change({ actor, reason }: OperatorRequest): OperatorChange {
    return {
      origin: operatorOrigin(actor),
      alongside: (manager, event) => this.log.append(actor, reason, { ...event, action: event.action as OperatorAction }, manager),
    };
  }
}
