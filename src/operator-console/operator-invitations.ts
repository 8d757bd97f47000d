import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { normaliseEmail } from '../people/email-address';
import { invitationExpiresAt, newInvitationToken } from '../people/invitation-token';
import type { OperatorRole } from './operator-role';

/**
 * Invitations of operators (the admin command's invite-operator): the one statement on operators that needs none of
 * the sign-in's libraries, so that the command does not load them.
 */
@Injectable()
export class OperatorInvitations {
  private readonly invitationHours: number;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.invitationHours = config.get('INVITATION_HOURS');
  }

  /**
   * Invites a person by e-mail address: a new operator, or a new invitation for one who has it already (which, taken,
   * replaces their password and second factor). The token, shown once in the link; only its hash is kept.
   */
  async invite(email: string, displayName: string, role: OperatorRole): Promise<string> {
    const { token, hash } = newInvitationToken();
    await this.dataSource.query(
      `INSERT INTO operators (email, display_name, role, invitation_hash, invitation_expires_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (email) DO UPDATE SET display_name = $2, role = $3, invitation_hash = $4, invitation_expires_at = $5`,
      [normaliseEmail(email), displayName, role, hash, invitationExpiresAt(this.clock.now(), this.invitationHours)],
    );
    return token;
  }
}
