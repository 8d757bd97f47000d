/**
 * What other modules may say in SQL about quota_usage, for a statement that reads it in one go with their own tables
 * (the operator console's partner list): each user's count per billing period, as a relation `alias` with the
 * columns user_id, period ('YYYY-MM') and used.
 */
export function usagePerPeriod(alias: string): string {
  return `(SELECT user_id, period, used FROM quota_usage) ${alias}`;
}

/** Each licence number charged, as a relation `alias` with the columns user_id, period and charged_at: a day's new usage. */
export function charges(alias: string): string {
  return `(SELECT user_id, period, charged_at FROM quota_charges) ${alias}`;
}
