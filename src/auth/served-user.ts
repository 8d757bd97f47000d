/** SQL: the users row `alias` is not disabled by the operator and holds a key that is neither revoked nor expired. */
function activeUser(alias: string): string {
  return `(${alias}.disabled_at IS NULL AND EXISTS (
    SELECT 1 FROM api_keys live_key
     WHERE live_key.user_id = ${alias}.id AND live_key.revoked_at IS NULL AND (live_key.expires_at IS NULL OR live_key.expires_at > now())))`;
}

/**
 * SQL that holds for a user the service works for: not disabled by the operator, and holding a live key (neither
 * revoked nor expired). A user whose keys are all revoked or expired is treated as disabled for monitoring, charges
 * and webhooks until it holds a key again: nobody can read what the work would produce. A test side (docs/api.md,
 * Test mode) is served only while test mode is enabled and its live user is served too, so that disabling a partner,
 * or TEST_MODE_ENABLED=false, pauses its test watches and webhooks as well. `alias` names the users row.
 */
export function servedUser(alias: string, testModeEnabled: boolean): string {
  const liveSide = `${alias}_live`;
  return `(${activeUser(alias)} AND (${alias}.live_user_id IS NULL OR (${testModeEnabled ? 'TRUE' : 'FALSE'} AND EXISTS (
    SELECT 1 FROM users ${liveSide} WHERE ${liveSide}.id = ${alias}.live_user_id AND ${activeUser(liveSide)}))))`;
}

/** SQL: the monthly quota of the users row `alias`: its plan, or TEST_MODE_QUOTA for a test side whatever the live plan. */
export function monthlyQuotaOf(alias: string, testModeQuota: number): string {
  return `(CASE WHEN ${alias}.mode = 'test' THEN ${Math.trunc(testModeQuota)} ELSE ${alias}.monthly_quota END)`;
}
