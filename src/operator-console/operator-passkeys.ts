import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { consoleOrigin } from '../console/console-origin';
import { PasskeyChallenges } from '../people/passkey-challenges';
import {
  newPasskey,
  PASSKEY_ADDED_ALREADY,
  passkeyAuthenticationOptions,
  passkeyRegistrationOptions,
  parseCredential,
  relyingParty,
  RelyingParty,
  StoredPasskey,
  verifiedAuthentication,
} from '../people/passkeys';
import { SignInLimiter } from '../people/sign-in-limiter';
import { OperatorAccount, OperatorAccounts } from './operator-accounts';
import type { OperatorActor } from './operator-actor';
import { OperatorLog } from './operator-log';
import { OPERATOR_SIGN_IN_SCOPE } from './operator-sessions';

/** A passkey as the operator's account page lists it. */
export interface ListedOperatorPasskey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

interface OperatorPasskeyRow extends StoredPasskey {
  id: string;
  operatorId: string;
  email: string;
}

/** The name the browser shows for the site when it offers or makes a passkey. */
const RELYING_PARTY_NAME = 'Licence Verification operators';
const ISO = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

/**
 * Operators' passkeys (WebAuthn credentials): added and removed by the operator on their own account page, each an
 * entry of the operators' log, and a sign-in with a passkey alone, as partner members have them (src/people: the
 * ceremonies' options and checks, and their challenges, PasskeyChallenges, under the operator console's own keys).
 * The relying party is the operator console's origin (OPERATOR_PUBLIC_URL, else the request's own). A passkey
 * signs in only while its operator is active (joined and not disabled); a sign-in is counted as a password's is.
 */
@Injectable()
export class OperatorPasskeys {
  private readonly publicUrl: string;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly challenges: PasskeyChallenges,
    private readonly accounts: OperatorAccounts,
    private readonly limiter: SignInLimiter,
    private readonly log: OperatorLog,
    config: AppConfig,
  ) {
    this.publicUrl = config.get('OPERATOR_PUBLIC_URL');
  }

  private party(request: FastifyRequest): RelyingParty {
    return relyingParty(consoleOrigin(this.publicUrl, request), RELYING_PARTY_NAME);
  }

  list(operatorId: string): Promise<ListedOperatorPasskey[]> {
    return this.dataSource.query<ListedOperatorPasskey[]>(
      `SELECT id, name, ${ISO('created_at')} AS "createdAt", ${ISO('last_used_at')} AS "lastUsedAt" FROM operator_passkeys
        WHERE operator_id = $1 ORDER BY created_at, id`,
      [operatorId],
    );
  }

  /** A new passkey's options, none of the operator's passkeys again; the challenge waits under the session. */
  async registrationOptions(request: FastifyRequest, sessionId: string, operator: OperatorAccount): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = await this.dataSource.query<Pick<StoredPasskey, 'credentialId' | 'transports'>[]>(
      `SELECT credential_id AS "credentialId", transports FROM operator_passkeys WHERE operator_id = $1`,
      [operator.id],
    );
    const person = { userId: operator.id, userName: operator.email, displayName: operator.displayName };
    const options = await passkeyRegistrationOptions(this.party(request), person, existing);
    await this.challenges.keep('operator', 'registration', sessionId, options.challenge);
    return options;
  }

  /** Adds the passkey the browser made with the session's challenge (taken), logged; a refusal's words, or null. */
  async register(
    request: FastifyRequest,
    sessionId: string,
    actor: OperatorActor,
    typedName: string,
    credential: string,
  ): Promise<{ error: string } | null> {
    const challenge = await this.challenges.take('operator', 'registration', sessionId);
    const passkey = await newPasskey(this.party(request), typedName, parseCredential(credential), challenge);
    if ('error' in passkey) return passkey;
    return this.dataSource.transaction(async (manager) => {
      const [added] = await manager.query<{ id: string }[]>(
        `INSERT INTO operator_passkeys (operator_id, credential_id, public_key, counter, transports, name) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (credential_id) DO NOTHING RETURNING id`,
        [actor.id, passkey.credentialId, Buffer.from(passkey.publicKey), passkey.counter, passkey.transports, passkey.name],
      );
      if (!added) return { error: PASSKEY_ADDED_ALREADY };
      const changes = { factor: { old: null, new: 'passkey' }, name: { old: null, new: passkey.name } };
      await this.log.append(actor, null, { action: 'operator.factor_added', userId: null, target: { type: 'operator', id: actor.id }, changes }, manager);
      return null;
    });
  }

  /** Removes one of the operator's own passkeys, logged; false when they have no such passkey. */
  remove(actor: OperatorActor, passkeyId: string): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const [removed] = await manager.query<[{ name: string }[], number]>(
        `DELETE FROM operator_passkeys WHERE id = $1 AND operator_id = $2 RETURNING name`,
        [passkeyId, actor.id],
      );
      if (removed.length !== 1) return false;
      const changes = { factor: { old: 'passkey', new: null }, name: { old: removed[0].name, new: null } };
      await this.log.append(
        actor,
        null,
        { action: 'operator.factor_removed', userId: null, target: { type: 'operator', id: actor.id }, changes },
        manager,
      );
      return true;
    });
  }

  /** A sign-in's options, for the sign-in form's script; its challenge waits under the form's token (checked by the caller). */
  async signInOptions(request: FastifyRequest, formToken: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const options = await passkeyAuthenticationOptions(this.party(request));
    await this.challenges.keep('operator', 'sign-in', formToken, options.challenge);
    return options;
  }

  /**
   * An operator's sign-in with a passkey alone (both factors): the form's challenge taken, the attempt counted as a
   * password's is (the passkey's operator's address, or the credential's id), then the signature checked and the
   * counter moved on. The operator; `wait` seconds past the limits; or null, the same whatever was wrong.
   */
  async signIn(request: FastifyRequest, formToken: string, credential: string): Promise<OperatorAccount | { wait: number } | null> {
    const challenge = await this.challenges.take('operator', 'sign-in', formToken);
    const response = parseCredential<AuthenticationResponseJSON>(credential);
    const passkey = response === null ? undefined : await this.activePasskey(response.id);
    const attempt = { scope: OPERATOR_SIGN_IN_SCOPE, address: request.ip, email: passkey?.email ?? `passkey ${response?.id ?? ''}` };
    const wait = await this.limiter.count(attempt);
    if (wait > 0) return { wait };
    if (passkey === undefined || response === null || challenge === null) return null;
    const counter = await verifiedAuthentication(this.party(request), response, challenge, passkey);
    if (counter === null) return null;
    const [, moved] = await this.dataSource.query<[unknown, number]>(
      `UPDATE operator_passkeys SET counter = $3, last_used_at = now() WHERE id = $1 AND counter = $2`,
      [passkey.id, passkey.counter, counter],
    );
    const operator = moved === 1 ? await this.accounts.signedInWithPasskey(passkey.operatorId) : null;
    if (operator !== null) await this.limiter.forgive(attempt);
    return operator;
  }

  /** The passkey of this credential, while its operator is active (joined, not disabled). */
  private async activePasskey(credentialId: string): Promise<OperatorPasskeyRow | undefined> {
    const [row] = await this.dataSource.query<OperatorPasskeyRow[]>(
      `SELECT p.id, p.operator_id AS "operatorId", o.email, p.credential_id AS "credentialId", p.public_key AS "publicKey",
              p.counter::float8 AS counter, p.transports
         FROM operator_passkeys p JOIN operators o ON o.id = p.operator_id
        WHERE p.credential_id = $1 AND o.disabled_at IS NULL AND (o.totp_confirmed_at IS NOT NULL OR o.sso_joined_at IS NOT NULL)`,
      [credentialId],
    );
    return row;
  }
}
