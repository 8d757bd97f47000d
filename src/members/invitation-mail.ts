import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { createTransport } from 'nodemailer';
import { AppConfig } from '../config/app-config';
import type { MemberRole } from './member-role';

/** The invitation as a person reads it in their mail: plain text, the link alone on its line. */
export function invitationText(link: string, role: MemberRole, hours: number): string {
  return [
    `You are invited to the Licence Verification console, with the role ${role}.`,
    '',
    'Open this link to choose your name and password and to set up your second factor:',
    '',
    link,
    '',
    `The link works once, for ${hours} hours. If you did not expect it, ignore this e-mail.`,
  ].join('\n');
}

/**
 * Sends invitations through SMTP_URL when it is set (nodemailer, one connection per message); without it, sends
 * nothing, and the link shown to the inviter is the only way in.
 */
@Injectable()
export class InvitationMail implements OnApplicationShutdown {
  private readonly transport: ReturnType<typeof createTransport> | null;
  private readonly from: string;

  constructor(private readonly config: AppConfig) {
    const url = config.get('SMTP_URL');
    this.transport = url === '' ? null : createTransport(url);
    this.from = config.get('SMTP_FROM');
  }

  /** Whether invitations go out by e-mail too. */
  get sends(): boolean {
    return this.transport !== null;
  }

  async send(to: string, link: string, role: MemberRole): Promise<void> {
    if (this.transport === null) return;
    await this.transport.sendMail({
      from: this.from,
      to,
      subject: 'Your invitation to the Licence Verification console',
      text: invitationText(link, role, this.config.get('INVITATION_HOURS')),
    });
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
