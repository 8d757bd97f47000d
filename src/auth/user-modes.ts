import { Injectable } from '@nestjs/common';
import { AuthRepository } from './auth.repository';
import type { KeyMode } from './key-mode';

/** Enough for every user a process serves at once; past it the memory starts again (a miss costs one query). */
const MAX_REMEMBERED = 10_000;

/**
 * Which side a user row is, for lookups made on a user's behalf without its key (roster rows, re-checks): a row's
 * mode is fixed when it is created, so once read it is remembered for good.
 */
@Injectable()
export class UserModes {
  private readonly known = new Map<string, KeyMode>();

  constructor(private readonly repository: AuthRepository) {}

  async of(userId: string): Promise<KeyMode> {
    const known = this.known.get(userId);
    if (known) return known;
    const mode = await this.repository.userMode(userId);
    // A user deleted meanwhile is owed no register answer: its lookups are kept off the register.
    if (!mode) return 'test';
    if (this.known.size >= MAX_REMEMBERED) this.known.clear();
    this.known.set(userId, mode);
    return mode;
  }
}
