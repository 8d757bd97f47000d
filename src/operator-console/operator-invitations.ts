import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { normaliseEmail } from '../people/email-address';
import { invitationExpiresAt, newInvitationToken } from '../people/invitation-token';
import type { OperatorActor } from './operator-actor';
import { OperatorLog } from './operator-log';
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
    private readonly log: OperatorLog,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.invitationHours = config.get('INVITATION_HOURS');
  }

  /**
   * Invites a person by e-mail address: a new operator, or a new invitation for one who has it already (which, taken,
   * replaces their password and second factor). The token, shown once in the link; only its hash is kept. The
   * operators' log has the invitation, by `actor`, with the role given (and the one it replaced).
   */
  async invite(actor: OperatorActor, email: string, displayName: string, role: OperatorRole): Promise<string> {
    const { token, hash } = newInvitationToken();
    await this.dataSource.transaction(async (manager) => {
      const address = normaliseEmail(email);
      const [before] = await manager.query<{ role: OperatorRole }[]>(`SELECT role FROM operators WHERE email = $1 FOR UPDATE`, [address]);
      const [invited] = await manager.query<{ id: string }[]>(
        `INSERT INTO operators (email, display_name, role, invitation_hash, invitation_expires_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (email) DO UPDATE SET display_name = $2, role = $3, invitation_hash = $4, invitation_expires_at = $5 RETURNING id`,
        [address, displayName, role, hash, invitationExpiresAt(this.clock.now(), this.invitationHours)],
      );
      const changes = { email: { old: before ? address : null, new: address }, role: { old: before?.role ?? null, new: role } };
      await this.log.append(actor, null, { action: 'operator.invited', userId: null, target: { type: 'operator', id: invited.id }, changes }, manager);
    });
    return token;
  }
}
