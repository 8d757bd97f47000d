/*
 * What other modules may say in SQL about the members table, for statements that read it in one go with their own
 * (the operator console's partner list). Anything else they ask MembersService.
 */

/**
 * The members not removed, as a relation `alias`: id, user_id, email, display_name, role, status, invited_at,
 * last_sign_in_at, and totp (whether a TOTP second factor is set). Never a secret or its hash.
 */
export function memberRows(alias: string): string {
  return `(SELECT id, user_id, email, display_name, role, status, invited_at, last_sign_in_at, totp_secret IS NOT NULL AS totp
             FROM members WHERE removed_at IS NULL) ${alias}`;
}
