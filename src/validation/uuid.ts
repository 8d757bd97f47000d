const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID path parameter as the document shows it: 36 characters, as isUuid accepts them. */
export const UUID_SCHEMA = { type: 'string', format: 'uuid', maxLength: 36 } as const;

/** The ids PostgreSQL gives batches, webhook endpoints and deliveries: any UUID, either case. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
