import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../clock/clock';
import { normaliseEmail } from '../people/email-address';
import { hashInvitationToken } from '../people/invitation-token';
import { hashPassword, passwordMatches } from '../people/password-hash';
import { PASSWORD_REFUSAL_MESSAGES, passwordRefusal } from '../people/password-policy';
import { newRecoveryCodes, spendRecoveryCode } from '../people/recovery-codes';
import { acceptedTotpStep, newTotpSecret, totpUri } from '../people/totp';
import { WebhookSecrets } from '../secrets/webhook-secrets';
import type { OperatorRole } from './operator-role';

/** An operator as the console knows them once signed in. */
export interface OperatorAccount {
  id: string;
  email: string;
  displayName: string;
  role: OperatorRole;
}

/** An invitation still open: whose, and how far its taker got (a password set, a second factor waiting). */
export interface OpenInvitation extends OperatorAccount {
  passwordSet: boolean;
}

interface StoredOperator extends OperatorAccount {
  passwordHash: string | null;
  totpSecret: string | null;
  totpConfirmed: boolean;
  recoveryCodeHashes: string[];
}

const ACCOUNT = `id, email, display_name AS "displayName", role`;
const STORED = `${ACCOUNT}, password_hash AS "passwordHash", totp_secret AS "totpSecret", totp_confirmed_at IS NOT NULL AS "totpConfirmed",
  recovery_code_hashes AS "recoveryCodeHashes"`;
const ISSUER = 'Licence Verification operators';

/**
 * The operators' accounts as they sign in: every statement on operators but the invitation's (OperatorInvitations) and
 * the changes one operator makes to another (OperatorRoster); passkeys are OperatorPasskeys'. Passwords, TOTP codes, recovery codes and invitation tokens
 * are the people kernel's (src/people); the TOTP secret is sealed as webhook secrets are. An invitation is taken in
 * two steps (a password, then a TOTP code from the app that read the secret) and stays open until the second.
 */
@Injectable()
export class OperatorAccounts {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly secrets: WebhookSecrets,
    private readonly clock: Clock,
  ) {}

  async invitation(token: string): Promise<OpenInvitation | null> {
    const [row] = await this.dataSource.query<OpenInvitation[]>(
      `SELECT ${ACCOUNT}, password_hash IS NOT NULL AND totp_confirmed_at IS NULL AS "passwordSet" FROM operators
        WHERE invitation_hash = $1 AND invitation_expires_at > $2 AND disabled_at IS NULL`,
      [hashInvitationToken(token), this.clock.now()],
    );
    return row ?? null;
  }

  /**
   * The invitation's first step: the password, in the people kernel's words when refused; with it a new TOTP secret,
   * stored sealed and answered with its otpauth address for the QR code.
   */
  async choosePassword(token: string, password: string): Promise<{ refused: string } | { secret: string; uri: string }> {
    const invited = await this.invitation(token);
    if (!invited) return { refused: 'This invitation link has expired or was used. Ask for a new one.' };
    const refusal = passwordRefusal(password, [invited.email, invited.displayName]);
    if (refusal !== null) return { refused: PASSWORD_REFUSAL_MESSAGES[refusal] };
    const secret = newTotpSecret();
    await this.dataSource.query(
      `UPDATE operators SET password_hash = $2, totp_secret = $3, totp_confirmed_at = NULL, totp_last_step = NULL WHERE id = $1`,
      [invited.id, await hashPassword(password), this.secrets.seal(secret)],
    );
    return { secret, uri: totpUri(ISSUER, invited.email, secret) };
  }

  /** The second step: a code from the app proves it holds the secret; the invitation closes and ten recovery codes are made. */
  async confirmTotp(token: string, code: string): Promise<{ account: OperatorAccount; recoveryCodes: string[] } | null> {
    const invited = await this.invitation(token);
    if (!invited?.passwordSet) return null;
    const stored = await this.stored(invited.id);
    const step = stored?.totpSecret ? acceptedTotpStep(this.secrets.open(stored.totpSecret), code, this.clock.now().getTime(), null) : null;
    if (step === null) return null;
    const { codes, hashes } = newRecoveryCodes();
    const [rows] = await this.dataSource.query<[OperatorAccount[], number]>(
      `UPDATE operators SET totp_confirmed_at = now(), totp_last_step = $2, recovery_code_hashes = $3, invitation_hash = NULL,
              invitation_expires_at = NULL, last_sign_in_at = now()
        WHERE id = $1 AND invitation_hash = $4 RETURNING ${ACCOUNT}`,
      [invited.id, step, hashes, hashInvitationToken(token)],
    );
    return rows.length === 1 ? { account: rows[0], recoveryCodes: codes } : null;
  }

  /**
   * Signs in with the e-mail address, the password and a TOTP code or a recovery code: the account, or null, the same
   * whichever was wrong (a disabled operator's too). An unknown address takes a password check's time too. A TOTP code is taken once: its step
   * is stored only when newer than the last one used, in one statement, so two sign-ins cannot both use it.
   */
  async signIn(email: string, password: string, code: string): Promise<OperatorAccount | null> {
    const [row] = await this.dataSource.query<StoredOperator[]>(`SELECT ${STORED} FROM operators WHERE email = $1 AND disabled_at IS NULL`, [
      normaliseEmail(email),
    ]);
    const passwordOk = await passwordMatches(row?.passwordHash ?? null, password);
    if (!row || !passwordOk || !row.totpConfirmed || !row.totpSecret) return null;
    const step = acceptedTotpStep(this.secrets.open(row.totpSecret), code, this.clock.now().getTime(), null);
    const [taken] =
      step !== null
        ? await this.dataSource.query<[unknown[], number]>(
            `UPDATE operators SET totp_last_step = $2, last_sign_in_at = now() WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id`,
            [row.id, step],
          )
        : await this.spendRecoveryCode(row, code);
    if (taken.length !== 1) return null;
    return { id: row.id, email: row.email, displayName: row.displayName, role: row.role };
  }

  /** A passkey signed the operator in (OperatorPasskeys): the account, while they may sign in. */
  async signedInWithPasskey(operatorId: string): Promise<OperatorAccount | null> {
    const [rows] = await this.dataSource.query<[OperatorAccount[], number]>(
      `UPDATE operators SET last_sign_in_at = now() WHERE id = $1 AND (totp_confirmed_at IS NOT NULL OR sso_joined_at IS NOT NULL) AND disabled_at IS NULL
       RETURNING ${ACCOUNT}`,
      [operatorId],
    );
    return rows[0] ?? null;
  }

  /** The operator, while they may sign in: joined (a second factor, or single sign-on) and not disabled. */
  async find(operatorId: string): Promise<OperatorAccount | null> {
    const [row] = await this.dataSource.query<OperatorAccount[]>(
      `SELECT ${ACCOUNT} FROM operators WHERE id = $1 AND (totp_confirmed_at IS NOT NULL OR sso_joined_at IS NOT NULL) AND disabled_at IS NULL`,
      [operatorId],
    );
    return row ?? null;
  }

  /**
   * An operator single sign-on let in (OPERATOR_OIDC_*): the one with this address, signed in with the role they have;
   * or, new, made with `role`, and `created` called in the same transaction (the operators' log's entry). An open
   * invitation of theirs closes: the provider vouches for them. Null for a disabled operator, who stays as they are.
   */
  ssoSignIn(
    email: string,
    displayName: string,
    role: OperatorRole,
    created: (manager: EntityManager, operator: OperatorAccount) => Promise<void>,
  ): Promise<OperatorAccount | null> {
    return this.dataSource.transaction(async (manager) => {
      const [row] = await manager.query<(OperatorAccount & { created: boolean })[]>(
        `INSERT INTO operators (email, display_name, role, sso_joined_at, last_sign_in_at) VALUES ($1, $2, $3, now(), now())
         ON CONFLICT (email) DO UPDATE SET sso_joined_at = COALESCE(operators.sso_joined_at, now()), last_sign_in_at = now(),
           invitation_hash = NULL, invitation_expires_at = NULL
           WHERE operators.disabled_at IS NULL
         RETURNING ${ACCOUNT}, xmax = 0 AS created`,
        [normaliseEmail(email), displayName, role],
      );
      if (!row) return null;
      const { created: isNew, ...operator } = row;
      if (isNew) await created(manager, operator);
      return operator;
    });
  }

  /** A recovery code in place of a TOTP code: spent, so that it works once (compared against the stored list, in one statement). */
  private async spendRecoveryCode(row: StoredOperator, code: string): Promise<[unknown[], number]> {
    const left = spendRecoveryCode(row.recoveryCodeHashes, code);
    if (left === null) return [[], 0];
    return this.dataSource.query(
      `UPDATE operators SET recovery_code_hashes = $2, last_sign_in_at = now() WHERE id = $1 AND recovery_code_hashes = $3 RETURNING id`,
      [row.id, left, row.recoveryCodeHashes],
    );
  }

  private async stored(operatorId: string): Promise<StoredOperator | undefined> {
    const [row] = await this.dataSource.query<StoredOperator[]>(`SELECT ${STORED} FROM operators WHERE id = $1`, [operatorId]);
    return row;
  }
}
