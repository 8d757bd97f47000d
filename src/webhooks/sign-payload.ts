import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new signing secret in the Standard Webhooks form: whsec_ and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** One v1 signature: base64 HMAC-SHA256, keyed with the secret's decoded bytes, of "id.timestamp.body". */
function signature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
}

/**
 * The Standard Webhooks headers for one attempt. With several secrets (during a rotation) the
 * signature header carries one v1 signature per secret, space separated, and a receiver accepts
 * any of them.
 */
export function signPayload(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((secret) => `v1,${signature(secret, id, timestampSeconds, body)}`).join(' '),
  };
}
