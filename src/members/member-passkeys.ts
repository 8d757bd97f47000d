import { Injectable } from '@nestjs/common';
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { ActivityLog, ActivityOrigin } from '../activity/activity-log';
import { Clock } from '../clock/clock';
import { newPasskey, PASSKEY_ADDED_ALREADY, passkeyRegistrationOptions, RelyingParty, verifiedAuthentication } from '../people/passkeys';
import type { Refused } from './members.service';
import { MemberRow, MembersRepository, PasskeyRow } from './members.repository';

/** A passkey as Your account lists it. */
export interface ListedPasskey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/**
 * Members' passkeys (WebAuthn credentials, issue 41): added and removed on Your account, each an activity event
 * naming the factor, and checked at sign-in. The ceremonies' challenges are the caller's to keep and spend once; the
 * WebAuthn checks are src/people/passkeys.ts's.
 */
@Injectable()
export class MemberPasskeys {
  constructor(
    private readonly repository: MembersRepository,
    private readonly activity: ActivityLog,
    private readonly clock: Clock,
  ) {}

  async list(memberId: string): Promise<ListedPasskey[]> {
    return (await this.repository.passkeysOf(memberId)).map(({ id, name, createdAt, lastUsedAt }) => ({
      id,
      name,
      createdAt: createdAt.toISOString(),
      lastUsedAt: lastUsedAt?.toISOString() ?? null,
    }));
  }

  /** The options of a new passkey for this member, none of their passkeys again. */
  async registrationOptions(party: RelyingParty, member: MemberRow): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = await this.repository.passkeysOf(member.id);
    return passkeyRegistrationOptions(party, { userId: member.id, userName: member.email, displayName: member.displayName ?? member.email }, existing);
  }

  /** Adds the passkey the browser's answer proves, under the name the member typed; a refusal's words, or null when added. */
  async register(
    origin: ActivityOrigin,
    party: RelyingParty,
    member: MemberRow,
    typedName: string,
    response: RegistrationResponseJSON | null,
    challenge: string | null,
  ): Promise<Refused | null> {
    const passkey = await newPasskey(party, typedName, response, challenge);
    if ('error' in passkey) return passkey;
    return this.repository.transaction(async (manager) => {
      if ((await this.repository.insertPasskey(manager, member.id, passkey)) === null) return { error: PASSKEY_ADDED_ALREADY };
      await this.activity.append(
        origin,
        {
          userId: member.userId,
          action: 'member.factor_added',
          target: { type: 'member', id: member.id },
          changes: { factor: { old: null, new: 'passkey' } },
        },
        manager,
      );
      return null;
    });
  }

  /** Removes one of the member's passkeys; false when they have no such passkey. */
  remove(origin: ActivityOrigin, member: MemberRow, passkeyId: string): Promise<boolean> {
    return this.repository.transaction(async (manager) => {
      if (!(await this.repository.deletePasskey(manager, member.id, passkeyId))) return false;
      await this.activity.append(
        origin,
        {
          userId: member.userId,
          action: 'member.factor_removed',
          target: { type: 'member', id: member.id },
          changes: { factor: { old: 'passkey', new: null } },
        },
        manager,
      );
      return true;
    });
  }

  /** The passkey a sign-in names, while its member is active; undefined for an unknown or removed passkey. */
  signInPasskey(response: AuthenticationResponseJSON): Promise<PasskeyRow | undefined> {
    return this.repository.activePasskey(response.id);
  }

  /** Whether `response` is the passkey's signature over the challenge, with the person verified; its use is then recorded. */
  async signedBy(party: RelyingParty, passkey: PasskeyRow, response: AuthenticationResponseJSON, challenge: string): Promise<boolean> {
    const counter = await verifiedAuthentication(party, response, challenge, passkey);
    return counter !== null && this.repository.usePasskey(passkey.id, passkey.counter, counter, this.clock.now());
  }
}
