import { RedisStore } from '../redis/redis.module';

/** Where an operator's session is kept, under the hash of its id (its handle). */
export const operatorSessionKey = (redis: RedisStore, handle: string): string => redis.key('operator-session', handle);

/** The handles of an operator's sessions, so that disabling or removing them ends them all at once. */
export const operatorSessionsKey = (redis: RedisStore, operatorId: string): string => redis.key('operator-sessions', operatorId);

/** Ends every session of the operator: their next request goes to the sign-in page. How many there were. */
export async function endOperatorSessions(redis: RedisStore, operatorId: string): Promise<number> {
  const listKey = operatorSessionsKey(redis, operatorId);
  const handles = await redis.client.smembers(listKey);
  const ended = handles.length === 0 ? 0 : await redis.client.del(...handles.map((handle) => operatorSessionKey(redis, handle)));
  await redis.client.del(listKey);
  return ended;
}
