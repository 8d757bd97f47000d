import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { RedisStore } from '../redis/redis.module';
import { PASSKEY_CEREMONY_MS } from './passkeys';

/** Which console keeps the challenge (each its own keys), and for which ceremony. */
export type PasskeyConsole = 'console' | 'operator';
export type PasskeyCeremony = 'sign-in' | 'registration';

/**
 * The WebAuthn ceremonies' challenges, for the partner console and the operator console alike: kept in Redis for as
 * long as a browser has to finish (PASSKEY_CEREMONY_MS) under the SHA-256 of their holder (a sign-in form's token, or
 * a session's id), and taken once, so that an answer signs in or adds a passkey once only.
 */
@Injectable()
export class PasskeyChallenges {
  constructor(private readonly redis: RedisStore) {}

  private key(place: PasskeyConsole, ceremony: PasskeyCeremony, holder: string): string {
    return this.redis.key(`${place}-passkey-challenge`, ceremony, createHash('sha256').update(holder).digest('hex'));
  }

  async keep(place: PasskeyConsole, ceremony: PasskeyCeremony, holder: string, challenge: string): Promise<void> {
    await this.redis.client.set(this.key(place, ceremony, holder), challenge, 'PX', PASSKEY_CEREMONY_MS);
  }

  /** The challenge waiting for this holder, taken: it works once. */
  take(place: PasskeyConsole, ceremony: PasskeyCeremony, holder: string): Promise<string | null> {
    return this.redis.client.getdel(this.key(place, ceremony, holder));
  }
}
