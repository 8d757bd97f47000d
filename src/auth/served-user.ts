/**
 * SQL that holds for a user the service works for: not disabled by the operator, and holding a live key (neither
 * revoked nor expired). A user whose keys are all revoked or expired is treated as disabled for monitoring, charges
 * and webhooks until it holds a key again: nobody can read what the work would produce. `alias` names the users row.
 */
export function servedUser(alias: string): string {
  return `(${alias}.disabled_at IS NULL AND EXISTS (
    SELECT 1 FROM api_keys live_key
     WHERE live_key.user_id = ${alias}.id AND live_key.revoked_at IS NULL AND (live_key.expires_at IS NULL OR live_key.expires_at > now())))`;
}
