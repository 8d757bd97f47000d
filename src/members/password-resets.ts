import { Injectable, Logger } from '@nestjs/common';
import { ActivityLog, ActivityOrigin } from '../activity/activity-log';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { normaliseEmail } from '../people/email-address';
import { hashInvitationToken, invitationState, newInvitationToken } from '../people/invitation-token';
import { hashPassword } from '../people/password-hash';
import { PASSWORD_REFUSAL_MESSAGES, passwordRefusal } from '../people/password-policy';
import { consoleLinkBase, InvitationMail } from './invitation-mail';
import { MemberRow, MembersRepository } from './members.repository';
import type { Refused } from './members.service';

const DEAD_LINK = 'This reset link has expired or was used already. Ask for a new one on the sign-in page.';

/**
 * Password resets by e-mail (issue 41), where SMTP_URL is set: a one-time link (256 random bits, stored only as its
 * SHA-256, for PASSWORD_RESET_MINUTES) to each active member of the address; the link sets a new password by the same
 * policy. The second factor stays: the next sign-in still asks for it.
 */
@Injectable()
export class PasswordResets {
  private readonly logger = new Logger(PasswordResets.name);
  private readonly linkBase: string;

  constructor(
    private readonly repository: MembersRepository,
    private readonly mail: InvitationMail,
    private readonly activity: ActivityLog,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {
    this.linkBase = consoleLinkBase(config);
  }

  /** How long a reset link works (PASSWORD_RESET_MINUTES). */
  get minutes(): number {
    return this.config.get('PASSWORD_RESET_MINUTES');
  }

  /** Whether passwords may be reset by e-mail: only when e-mail goes out. */
  get offered(): boolean {
    return this.mail.sends;
  }

  /**
   * Makes a reset for each active member with this address (an address may be a member of several accounts) and
   * e-mails its link. The caller answers the same whatever happened here, and the mail goes out after the answer,
   * so that neither the answer nor its time tells whether the address has an account.
   */
  async request(email: string): Promise<void> {
    if (!this.offered) return;
    const expiresAt = new Date(this.clock.now().getTime() + this.minutes * 60_000);
    for (const member of await this.repository.activeByEmail(normaliseEmail(email))) {
      const { token, hash } = newInvitationToken();
      await this.repository.setPasswordReset(member.id, hash, expiresAt);
      this.mail.sendPasswordReset(member.email, `${this.linkBase}/console/reset-password/${token}`).catch((error: unknown) => {
        this.logger.warn(`A password reset e-mail was not sent: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
  }

  /** The member a link's token names while it is open; null for an unknown, used or expired link. */
  async holderOf(token: string): Promise<MemberRow | null> {
    const member = await this.repository.byPasswordReset(hashInvitationToken(token));
    if (!member) return null;
    return invitationState(member.resetExpiresAt, null, this.clock.now()) === 'open' ? member : null;
  }

  /**
   * Sets the new password of the link's member, once: logged as member.password_reset by the member. The caller ends
   * the member's sessions. Answers the member, or a refusal's words (a dead link, a password the policy refuses).
   */
  async reset(token: string, password: string, origin: Omit<ActivityOrigin, 'actor'>): Promise<{ member: MemberRow } | Refused> {
    const member = await this.holderOf(token);
    if (!member) return { error: DEAD_LINK };
    const problem = passwordRefusal(password, [member.email, member.displayName ?? '']);
    if (problem !== null) return { error: PASSWORD_REFUSAL_MESSAGES[problem] };
    const passwordHash = await hashPassword(password);
    const done = await this.repository.transaction(async (manager) => {
      if (!(await this.repository.resetPassword(manager, member.id, hashInvitationToken(token), passwordHash))) return false;
      const memberOrigin = { ...origin, actor: { type: 'member' as const, id: member.id } };
      await this.activity.append(
        memberOrigin,
        { userId: member.userId, action: 'member.password_reset', target: { type: 'member', id: member.id } },
        manager,
      );
      return true;
    });
    return done ? { member } : { error: DEAD_LINK };
  }
}
