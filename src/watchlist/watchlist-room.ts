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
