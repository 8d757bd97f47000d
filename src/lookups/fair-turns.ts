/** A user with lookups waiting in their pending list of one priority. */
export interface PendingUser {
  userId: string;
  pending: number;
}

/** How many of one user's pending lookups go into the queue now. */
export interface Turn {
  userId: string;
  count: number;
}

export interface PriorityPending<P extends number = number> {
  priority: P;
  users: PendingUser[];
}

export interface PriorityTurns<P extends number = number> {
  priority: P;
  turns: Turn[];
  /** where the next round starts after: the user served last */
  lastServed: string | null;
}

/**
 * Shares `slots` among the users one lookup per turn, round-robin in user id order, starting with the
 * first user after `lastServed` (so a user served last time goes last this time). A user with fewer
 * pending lookups than their share drops out, and the others share the rest.
 */
export function takeTurns(users: PendingUser[], lastServed: string | null, slots: number): { turns: Turn[]; lastServed: string | null } {
  const waiting = users.filter((user) => user.pending > 0).sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  const start = lastServed === null ? 0 : waiting.findIndex((user) => user.userId > lastServed);
  const order = start <= 0 ? waiting : [...waiting.slice(start), ...waiting.slice(0, start)];
  const counts = new Map<string, number>();
  let left = Math.max(0, slots);
  let served = lastServed;
  for (let round = 1; left > 0; round += 1) {
    const inRound = order.filter((user) => user.pending >= round);
    if (inRound.length === 0) break;
    for (const user of inRound.slice(0, left)) {
      counts.set(user.userId, (counts.get(user.userId) ?? 0) + 1);
      served = user.userId;
    }
    left -= Math.min(left, inRound.length);
  }
  return {
    turns: order.filter((user) => counts.has(user.userId)).map((user) => ({ userId: user.userId, count: counts.get(user.userId)! })),
    lastServed: served,
  };
}

/**
 * The whole dispatch of one tick: the free slots go to the most urgent priority first (the lowest
 * number, as in BullMQ), and within each priority the users take turns (takeTurns).
 */
export function planDispatch<P extends number>(
  pending: PriorityPending<P>[],
  lastServed: ReadonlyMap<P, string | null>,
  slots: number,
): PriorityTurns<P>[] {
  let left = Math.max(0, slots);
  return [...pending]
    .sort((a, b) => a.priority - b.priority)
    .map(({ priority, users }) => {
      const { turns, lastServed: served } = takeTurns(users, lastServed.get(priority) ?? null, left);
      left -= turns.reduce((sum, turn) => sum + turn.count, 0);
      return { priority, turns, lastServed: served };
    });
}

/**
 * Whether a new batch or re-check lookup must wait its turn in the user's pending list. Without contention it
 * enters the queue at once (no dispatcher tick in its way): while the queue holds less than `target` and the
 * user has nothing parked (which it would overtake). Once the queue is full, every user's lookups park, and
 * the dispatcher hands out the turns.
 */
export function mustPark(userParked: number, queued: number, target: number): boolean {
  return userParked > 0 || queued >= target;
}

/**
 * How many lookups to move into the queue now: enough to keep `target` queued, so workers never idle
 * while lookups wait, and a newcomer's lookups are never behind more than `target` of someone else's.
 */
export function freeSlots(queued: number, target: number): number {
  return Math.max(0, target - queued);
}
