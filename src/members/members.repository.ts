import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { MemberRole, MemberStatus } from './member-role';
import type { SsoSettings } from './member-sso';

/** A member as the service reads it; secrets as stored (hashes, sealed). */
export interface MemberRow {
  id: string;
  userId: string;
  email: string;
  displayName: string | null;
  role: MemberRole;
  status: MemberStatus;
  passwordHash: string | null;
  totpSecret: string | null;
  totpLastStep: number | null;
  totpPendingSecret: string | null;
  recoveryCodeHashes: string[];
  invitationExpiresAt: Date | null;
  invitedAt: Date;
  joinedAt: Date | null;
  lastSignInAt: Date | null;
}

/** An account's single sign-on as stored: its settings, and the client secret sealed. */
export interface SsoRow extends SsoSettings {
  userId: string;
  clientSecret: string;
}

const SSO_COLUMNS = `user_id AS "userId", issuer, client_id AS "clientId", client_secret AS "clientSecret", domains,
  new_member_role AS "newMemberRole", required`;
/** A member's passkey as the service reads it: the credential's public part, never a secret. */
export interface PasskeyRow {
  id: string;
  memberId: string;
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

const PASSKEY_COLUMNS = `p.id, p.member_id AS "memberId", p.credential_id AS "credentialId", p.public_key AS "publicKey", p.counter::float8 AS counter,
  p.transports, p.name, p.created_at AS "createdAt", p.last_used_at AS "lastUsedAt"`;

const COLUMNS = `id, user_id AS "userId", email, display_name AS "displayName", role, status, password_hash AS "passwordHash",
  totp_secret AS "totpSecret", totp_last_step AS "totpLastStep", totp_pending_secret AS "totpPendingSecret",
  recovery_code_hashes AS "recoveryCodeHashes", invitation_expires_at AS "invitationExpiresAt", invited_at AS "invitedAt",
  joined_at AS "joinedAt", last_sign_in_at AS "lastSignInAt"`;

/** Every statement on members. Removed members (removed_at set) are kept for the records they made, and read by none of these. */
@Injectable()
export class MembersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** A new invited member; null when the account already has a member with this address. */
  async insertInvited(
    manager: EntityManager,
    member: { userId: string; email: string; role: MemberRole; invitationHash: string; expiresAt: Date },
  ): Promise<string | null> {
    const rows = await manager.query<{ id: string }[]>(
      `INSERT INTO members (user_id, email, role, status, invitation_hash, invitation_expires_at) VALUES ($1, $2, $3, 'invited', $4, $5)
       ON CONFLICT (user_id, email) WHERE removed_at IS NULL DO NOTHING RETURNING id`,
      [member.userId, member.email, member.role, member.invitationHash, member.expiresAt],
    );
    return rows[0]?.id ?? null;
  }

  /** The invited member an invitation's hash names. */
  async byInvitation(invitationHash: string): Promise<MemberRow | undefined> {
    const [row] = await this.dataSource.query<MemberRow[]>(
      `SELECT ${COLUMNS} FROM members WHERE invitation_hash = $1 AND status = 'invited' AND removed_at IS NULL`,
      [invitationHash],
    );
    return row;
  }

  async byId(memberId: string, manager: EntityManager = this.dataSource.manager): Promise<MemberRow | undefined> {
    const [row] = await manager.query<MemberRow[]>(`SELECT ${COLUMNS} FROM members WHERE id = $1 AND removed_at IS NULL`, [memberId]);
    return row;
  }

  /** The active members with this address, in every account, the most recently signed in first. */
  activeByEmail(email: string): Promise<MemberRow[]> {
    return this.dataSource.query<MemberRow[]>(
      `SELECT ${COLUMNS} FROM members WHERE email = $1 AND status = 'active' AND removed_at IS NULL ORDER BY last_sign_in_at DESC NULLS LAST, id`,
      [email],
    );
  }

  /** An account's members, in the order they were invited. */
  list(userId: string): Promise<MemberRow[]> {
    return this.dataSource.query<MemberRow[]>(`SELECT ${COLUMNS} FROM members WHERE user_id = $1 AND removed_at IS NULL ORDER BY invited_at, id`, [
      userId,
    ]);
  }

  /** Display names of an account's members, removed ones included: the records they made still name them. */
  async displayNames(userId: string): Promise<Map<string, string>> {
    const rows = await this.dataSource.query<{ id: string; name: string }[]>(
      `SELECT id, COALESCE(display_name, email) AS name FROM members WHERE user_id = $1 ORDER BY name, id`,
      [userId],
    );
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  /** In the caller's transaction: the account's members, held until it ends, so that two changes of owners take turns. */
  lockAccount(manager: EntityManager, userId: string): Promise<MemberRow[]> {
    return manager.query<MemberRow[]>(`SELECT ${COLUMNS} FROM members WHERE user_id = $1 AND removed_at IS NULL ORDER BY id FOR UPDATE`, [userId]);
  }

  async setRole(manager: EntityManager, memberId: string, role: MemberRole): Promise<void> {
    await manager.query(`UPDATE members SET role = $2 WHERE id = $1`, [memberId, role]);
  }

  async setStatus(manager: EntityManager, memberId: string, status: MemberStatus): Promise<void> {
    await manager.query(`UPDATE members SET status = $2 WHERE id = $1`, [memberId, status]);
  }

  async markRemoved(manager: EntityManager, memberId: string): Promise<void> {
    await manager.query(`UPDATE members SET removed_at = now(), invitation_hash = NULL WHERE id = $1`, [memberId]);
  }

  /** An invited member's name, password and TOTP secret, before the first code confirms them; false once joined. */
  async setJoinDetails(memberId: string, details: { displayName: string; passwordHash: string; totpSecret: string }): Promise<boolean> {
    const [, count] = await this.dataSource.query<[unknown, number]>(
      `UPDATE members SET display_name = $2, password_hash = $3, totp_secret = $4 WHERE id = $1 AND status = 'invited' AND removed_at IS NULL`,
      [memberId, details.displayName, details.passwordHash, details.totpSecret],
    );
    return count === 1;
  }

  /** The invited member becomes active with its first code's step and its recovery codes; false when it already did. */
  async activate(manager: EntityManager, memberId: string, step: number, recoveryCodeHashes: string[]): Promise<boolean> {
    const [, count] = await manager.query<[unknown, number]>(
      `UPDATE members SET status = 'active', totp_last_step = $2, recovery_code_hashes = $3, invitation_hash = NULL, invitation_expires_at = NULL,
              joined_at = now(), last_sign_in_at = now()
        WHERE id = $1 AND status = 'invited' AND removed_at IS NULL AND password_hash IS NOT NULL`,
      [memberId, step, recoveryCodeHashes],
    );
    return count === 1;
  }

  /** Takes a TOTP step for this member if it is newer than the last taken: false when it is not (a code used twice). */
  async takeTotpStep(memberId: string, step: number): Promise<boolean> {
    const [, count] = await this.dataSource.query<[unknown, number]>(
      `UPDATE members SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)`,
      [memberId, step],
    );
    return count === 1;
  }

  /** Replaces the recovery codes if they are still `before`: false when another sign-in spent one meanwhile. */
  async replaceRecoveryCodes(memberId: string, before: string[], after: string[]): Promise<boolean> {
    const [, count] = await this.dataSource.query<[unknown, number]>(
      `UPDATE members SET recovery_code_hashes = $3 WHERE id = $1 AND recovery_code_hashes = $2`,
      [memberId, before, after],
    );
    return count === 1;
  }

  async recordSignIn(memberId: string, at: Date): Promise<void> {
    await this.dataSource.query(`UPDATE members SET last_sign_in_at = $2 WHERE id = $1`, [memberId, at]);
  }

  /** A new password; a reset link still open stops working. */
  async setPassword(memberId: string, passwordHash: string): Promise<void> {
    await this.dataSource.query(`UPDATE members SET password_hash = $2, password_reset_hash = NULL, password_reset_expires_at = NULL WHERE id = $1`, [
      memberId,
      passwordHash,
    ]);
  }

  /** An active member's password reset, in place of any before it: its token's hash and expiry. */
  async setPasswordReset(memberId: string, resetHash: string, expiresAt: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE members SET password_reset_hash = $2, password_reset_expires_at = $3 WHERE id = $1 AND status = 'active' AND removed_at IS NULL`,
      [memberId, resetHash, expiresAt],
    );
  }

  /** The active member a reset's hash names, with the reset's expiry. */
  async byPasswordReset(resetHash: string): Promise<(MemberRow & { resetExpiresAt: Date }) | undefined> {
    const [row] = await this.dataSource.query<(MemberRow & { resetExpiresAt: Date })[]>(
      `SELECT ${COLUMNS}, password_reset_expires_at AS "resetExpiresAt" FROM members
        WHERE password_reset_hash = $1 AND status = 'active' AND removed_at IS NULL`,
      [resetHash],
    );
    return row;
  }

  /** Takes the reset named by its hash and sets the new password; false when it was taken meanwhile. */
  async resetPassword(manager: EntityManager, memberId: string, resetHash: string, passwordHash: string): Promise<boolean> {
    const [, count] = await manager.query<[unknown, number]>(
      `UPDATE members SET password_hash = $3, password_reset_hash = NULL, password_reset_expires_at = NULL
        WHERE id = $1 AND password_reset_hash = $2 AND status = 'active' AND removed_at IS NULL`,
      [memberId, resetHash, passwordHash],
    );
    return count === 1;
  }

  /** A member's passkeys, oldest first. */
  passkeysOf(memberId: string): Promise<PasskeyRow[]> {
    return this.dataSource.query<PasskeyRow[]>(`SELECT ${PASSKEY_COLUMNS} FROM member_passkeys p WHERE p.member_id = $1 ORDER BY p.created_at, p.id`, [
      memberId,
    ]);
  }

  /** A member's new passkey; null when its credential is registered already. */
  async insertPasskey(
    manager: EntityManager,
    memberId: string,
    passkey: Pick<PasskeyRow, 'credentialId' | 'publicKey' | 'counter' | 'transports' | 'name'>,
  ): Promise<string | null> {
    const rows = await manager.query<{ id: string }[]>(
      `INSERT INTO member_passkeys (member_id, credential_id, public_key, counter, transports, name) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (credential_id) DO NOTHING RETURNING id`,
      [memberId, passkey.credentialId, Buffer.from(passkey.publicKey), passkey.counter, passkey.transports, passkey.name],
    );
    return rows[0]?.id ?? null;
  }

  /** Removes one of the member's passkeys; false when the member has no such passkey. */
  async deletePasskey(manager: EntityManager, memberId: string, passkeyId: string): Promise<boolean> {
    const [, count] = await manager.query<[unknown, number]>(`DELETE FROM member_passkeys WHERE id = $1 AND member_id = $2`, [passkeyId, memberId]);
    return count === 1;
  }

  /** The passkey of this credential, while its member is active (a disabled or removed member's passkeys sign no one in). */
  async activePasskey(credentialId: string): Promise<PasskeyRow | undefined> {
    const [row] = await this.dataSource.query<PasskeyRow[]>(
      `SELECT ${PASSKEY_COLUMNS} FROM member_passkeys p JOIN members m ON m.id = p.member_id
        WHERE p.credential_id = $1 AND m.status = 'active' AND m.removed_at IS NULL`,
      [credentialId],
    );
    return row;
  }

  /** Records a sign-in with the passkey: its new counter, if no other sign-in moved it meanwhile. */
  async usePasskey(passkeyId: string, counterBefore: number, counter: number, at: Date): Promise<boolean> {
    const [, count] = await this.dataSource.query<[unknown, number]>(
      `UPDATE member_passkeys SET counter = $3, last_used_at = $4 WHERE id = $1 AND counter = $2`,
      [passkeyId, counterBefore, counter, at],
    );
    return count === 1;
  }

  async setPendingFactor(memberId: string, sealedSecret: string): Promise<void> {
    await this.dataSource.query(`UPDATE members SET totp_pending_secret = $2 WHERE id = $1`, [memberId, sealedSecret]);
  }

  /**
   * The operator's reset: the member's TOTP secret, any pending one, and their recovery codes are gone, so that they
   * set a new factor at their next sign-in. The member of the account named by id or by address, joined (an invited
   * member has set up nothing yet); undefined when there is none. `hadTotp`: whether a factor was set before.
   */
  async clearFactor(
    manager: EntityManager,
    userId: string,
    which: { memberId: string } | { email: string },
  ): Promise<{ id: string; userId: string; hadTotp: boolean } | undefined> {
    const [rows] = await manager.query<[{ id: string; userId: string; hadTotp: boolean }[], number]>(
      `UPDATE members m SET totp_secret = NULL, totp_pending_secret = NULL, totp_last_step = NULL, recovery_code_hashes = '{}'
         FROM (SELECT id, totp_secret IS NOT NULL AS had FROM members
                WHERE user_id = $1 AND removed_at IS NULL AND status <> 'invited' AND (id = $2::uuid OR email = $3) FOR UPDATE) before
        WHERE m.id = before.id RETURNING m.id, m.user_id AS "userId", before.had AS "hadTotp"`,
      [userId, 'memberId' in which ? which.memberId : null, 'email' in which ? which.email : null],
    );
    return rows[0];
  }

  /** Removes every passkey of the member (an operator's reset of their factors); how many there were. */
  async removeAllPasskeys(manager: EntityManager, memberId: string): Promise<number> {
    const [, count] = await manager.query<[unknown, number]>(`DELETE FROM member_passkeys WHERE member_id = $1`, [memberId]);
    return count;
  }

  /** The pending secret becomes the factor, with its first code's step and new recovery codes; false when none was pending. */
  async confirmPendingFactor(manager: EntityManager, memberId: string, step: number, recoveryCodeHashes: string[]): Promise<boolean> {
    const [, count] = await manager.query<[unknown, number]>(
      `UPDATE members SET totp_secret = totp_pending_secret, totp_pending_secret = NULL, totp_last_step = $2, recovery_code_hashes = $3
        WHERE id = $1 AND totp_pending_secret IS NOT NULL`,
      [memberId, step, recoveryCodeHashes],
    );
    return count === 1;
  }

  /** The account's single sign-on; `manager` in a transaction holds it until that ends. */
  async sso(userId: string, manager: EntityManager = this.dataSource.manager, lock = false): Promise<SsoRow | undefined> {
    const [row] = await manager.query<SsoRow[]>(`SELECT ${SSO_COLUMNS} FROM member_sso WHERE user_id = $1${lock ? ' FOR UPDATE' : ''}`, [userId]);
    return row;
  }

  /** The single sign-on that allows this e-mail domain (at most one: saveSso keeps domains apart). */
  async ssoOfDomain(domain: string): Promise<SsoRow | undefined> {
    const [row] = await this.dataSource.query<SsoRow[]>(`SELECT ${SSO_COLUMNS} FROM member_sso WHERE domains @> ARRAY[$1]::text[]`, [domain]);
    return row;
  }

  /**
   * In the caller's transaction: which of `domains` another account's single sign-on already allows. Settings are
   * saved one at a time (a transaction-scoped advisory lock), so two accounts never claim one domain together.
   */
  async ssoDomainsTaken(manager: EntityManager, userId: string, domains: string[]): Promise<string[]> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext('member_sso domains'))`);
    const rows = await manager.query<{ domain: string }[]>(
      `SELECT DISTINCT domain FROM member_sso, unnest(domains) AS domain WHERE user_id <> $1 AND domain = ANY($2::text[]) ORDER BY domain`,
      [userId, domains],
    );
    return rows.map((row) => row.domain);
  }

  async saveSso(manager: EntityManager, row: SsoRow): Promise<void> {
    await manager.query(
      `INSERT INTO member_sso (user_id, issuer, client_id, client_secret, domains, new_member_role, required) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (user_id) DO UPDATE SET issuer = $2, client_id = $3, client_secret = $4, domains = $5, new_member_role = $6, required = $7,
         updated_at = now()`,
      [row.userId, row.issuer, row.clientId, row.clientSecret, row.domains, row.newMemberRole, row.required],
    );
  }

  /** The account's newest row for an address, removed or not, held until the caller's transaction ends. */
  async newestWithEmail(manager: EntityManager, userId: string, email: string): Promise<(MemberRow & { removed: boolean }) | undefined> {
    const [row] = await manager.query<(MemberRow & { removed: boolean })[]>(
      `SELECT ${COLUMNS}, removed_at IS NOT NULL AS removed FROM members WHERE user_id = $1 AND email = $2
        ORDER BY removed_at IS NULL DESC, invited_at DESC, id LIMIT 1 FOR UPDATE`,
      [userId, email],
    );
    return row;
  }

  /** A person single sign-on lets in for the first time: active at once, with no password or second factor here. */
  async insertSsoMember(
    manager: EntityManager,
    member: { userId: string; email: string; displayName: string | null; role: MemberRole },
  ): Promise<MemberRow | null> {
    const [row] = await manager.query<MemberRow[]>(
      `INSERT INTO members (user_id, email, display_name, role, status, joined_at) VALUES ($1, $2, $3, $4, 'active', now())
       ON CONFLICT (user_id, email) WHERE removed_at IS NULL DO NOTHING RETURNING ${COLUMNS}`,
      [member.userId, member.email, member.displayName, member.role],
    );
    return row ?? null;
  }

  /** An invited member who signs in through single sign-on: active, the invitation spent; false when it is no longer invited. */
  async activateBySso(manager: EntityManager, memberId: string, displayName: string | null): Promise<boolean> {
    const [, count] = await manager.query<[unknown, number]>(
      `UPDATE members SET status = 'active', display_name = COALESCE(display_name, $2), invitation_hash = NULL, invitation_expires_at = NULL,
              joined_at = now()
        WHERE id = $1 AND status = 'invited' AND removed_at IS NULL`,
      [memberId, displayName],
    );
    return count === 1;
  }
}
