import { timingSafeEqual } from 'node:crypto';
import { signPayload } from './sign-payload';

/** A receiver refuses timestamps further than this from its own clock (replays), as Standard Webhooks advises. */
const TOLERANCE_SECONDS = 5 * 60;

/**
 * The receiver's side of Standard Webhooks: true when one of the v1 signatures in the
 * webhook-signature header is the HMAC of "id.timestamp.body" under `secret`, and the timestamp
 * is within five minutes of `nowSeconds`. Used by the demo's receiver.
 */
export function isSignedBy(secret: string, headers: Record<string, string | undefined>, body: string, nowSeconds: number): boolean {
  const id = headers['webhook-id'];
  const timestamp = Number(headers['webhook-timestamp']);
  const received = headers['webhook-signature'];
  if (!id || !Number.isInteger(timestamp) || !received || Math.abs(nowSeconds - timestamp) > TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(signPayload([secret], id, timestamp, body)['webhook-signature']);
  return received.split(' ').some((signature) => {
    const candidate = Buffer.from(signature);
    return candidate.length === expected.length && timingSafeEqual(candidate, expected);
  });
}
