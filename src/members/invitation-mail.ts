import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { Transporter } from 'nodemailer';
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

/** The password reset as a person reads it: plain text, the link alone on its line. */
export function passwordResetText(link: string, minutes: number): string {
  return [
    'Someone asked to reset the password of your Licence Verification console account.',
    '',
    'Open this link to choose a new password:',
    '',
    link,
    '',
    `The link works once, for ${minutes} minutes. Your second factor stays as it is, and every session signed in now ends.`,
    'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  ].join('\n');
}

/** Where the console's links point: PUBLIC_BASE_URL, or else this process's own port on localhost. */
export function consoleLinkBase(config: AppConfig): string {
  return config.get('PUBLIC_BASE_URL') || `http://localhost:${config.get('PORT')}`;
}

/**
 * Sends members' e-mails (invitations, password resets) through SMTP_URL when it is set (nodemailer, one connection per message); without it, sends
 * nothing: an invitation's link shown to the inviter is then the only way in, and no password is reset by e-mail.
 */
@Injectable()
export class InvitationMail implements OnApplicationShutdown {
  private readonly transport: Transporter | null;
  private readonly from: string;

  constructor(private readonly config: AppConfig) {
    const url = config.get('SMTP_URL');
    // nodemailer is loaded only where mail is sent: most deployments' API processes never need its few MiB of heap.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    this.transport = url === '' ? null : (require('nodemailer') as typeof import('nodemailer')).createTransport(url);
    this.from = config.get('SMTP_FROM');
  }

  /** Whether invitations go out by e-mail too. */
  get sends(): boolean {
    return this.transport !== null;
  }

  async send(to: string, link: string, role: MemberRole): Promise<void> {
    await this.sendText(to, 'Your invitation to the Licence Verification console', invitationText(link, role, this.config.get('INVITATION_HOURS')));
  }

  async sendPasswordReset(to: string, link: string): Promise<void> {
    await this.sendText(to, 'Reset your Licence Verification console password', passwordResetText(link, this.config.get('PASSWORD_RESET_MINUTES')));
  }

  private async sendText(to: string, subject: string, text: string): Promise<void> {
    if (this.transport === null) return;
    await this.transport.sendMail({ from: this.from, to, subject, text });
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
