// The user's entries, how many of the numbers asked ($2) are not among them, and the user's own cap: one snapshot.
export const WATCHLIST_COUNT = `
  SELECT (SELECT count(*)::int FROM watch_entries WHERE user_id = $1) AS watched,
         (SELECT count(*)::int FROM unnest($2::text[]) AS asked(number)
           WHERE NOT EXISTS (SELECT 1 FROM watch_entries w WHERE w.user_id = $1 AND w.licence_number = asked.number)) AS adding,
         (SELECT watch_limit FROM users WHERE id = $1) AS "userLimit"`;

/** What decides whether entries may be added: the entries watched now, how many of the asked are new, the caps. */
export interface WatchlistCount {
  watched: number;
  adding: number;
  /** the user's own cap (keys set-watch-limit), or null for the default */
  userLimit: number | null;
}

/**
 * Whether the new entries fit under the user's cap. Updating entries already watched (nothing new) always fits,
 * even when a lowered cap leaves the watchlist above it.
 */
export function watchlistHasRoom({ watched, adding, userLimit }: WatchlistCount, defaultLimit: number): boolean {
  return adding === 0 || watched + adding <= (userLimit ?? defaultLimit);
}
