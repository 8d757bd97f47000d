import { Injectable } from '@nestjs/common';
import { ActivityLog, ActivityOrigin } from '../activity/activity-log';
import { RedisStore } from '../redis/redis.module';
import type { MemberRow } from './members.repository';

/** Where a console session is kept, under the hash of its id (its handle). */
export const consoleSessionKey = (redis: RedisStore, handle: string): string => redis.key('console-session', handle);

/** The handles of a member's console sessions, so that they can be listed and ended together. */
export const memberSessionsKey = (redis: RedisStore, memberId: string): string => redis.key('console-member-sessions', memberId);

/**
 * Ends members' console sessions at once, without HTTP: for the console (a manager's change, a member's own sign-outs)
 * and for the operator's actions (a second factor reset, from the operator console or the admin command).
 */
@Injectable()
export class MemberSessions {
  constructor(
    private readonly redis: RedisStore,
    private readonly activity: ActivityLog,
  ) {}

  /**
   * Ends the member's sessions (`handle` one, or all but the one of handle `except`, or all), so that their next
   * request goes to the sign-in page. Each ended session is logged as session.ended by `origin`.
   */
  async end(
    origin: ActivityOrigin,
    member: Pick<MemberRow, 'id' | 'userId'>,
    which: { handle: string } | { exceptHandle: string | null },
  ): Promise<number> {
    const listKey = memberSessionsKey(this.redis, member.id);
    const handles = await this.redis.client.smembers(listKey);
    const ending = 'handle' in which ? handles.filter((handle) => handle === which.handle) : handles.filter((handle) => handle !== which.exceptHandle);
    for (const handle of ending) {
      await this.redis.client.del(consoleSessionKey(this.redis, handle));
      await this.redis.client.srem(listKey, handle);
      await this.activity.append(origin, { userId: member.userId, action: 'session.ended', target: { type: 'session', id: handle.slice(0, 16) } });
    }
    return ending.length;
  }
}
