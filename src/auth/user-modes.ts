import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
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

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async of(userId: string): Promise<KeyMode> {
    const known = this.known.get(userId);
    if (known) return known;
    const [row] = await this.dataSource.query<{ mode: KeyMode }[]>('SELECT mode FROM users WHERE id = $1', [userId]);
    // A user deleted meanwhile is owed no register answer: its lookups are kept off the register.
    if (!row) return 'test';
    if (this.known.size >= MAX_REMEMBERED) this.known.clear();
    this.known.set(userId, row.mode);
    return row.mode;
  }
}
