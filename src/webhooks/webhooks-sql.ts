/**
 * What other modules may say in SQL about webhook endpoints and deliveries (the operator console's partner page): the
 * endpoints as a relation `alias` with id, user_id, url, created_at, failing_since and disabled_at, and with each its
 * deliveries that failed for good (failed) and that wait for a next attempt after failing (retrying).
 */
export function endpointHealth(alias: string): string {
  return `(SELECT e.id, e.user_id, e.url, e.created_at, e.failing_since, e.disabled_at,
                  (SELECT count(*)::int FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'FAILED') AS failed,
                  (SELECT count(*)::int FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'PENDING'
                      AND EXISTS (SELECT 1 FROM webhook_attempts a WHERE a.delivery_id = d.id)) AS retrying
             FROM webhook_endpoints e) ${alias}`;
}
