import { BucketPolicy, BucketReading, refillSeconds } from './token-bucket';

/** The one quota policy of the partner routes, as the RateLimit fields name it. */
const POLICY_NAME = '"user"';

/**
 * The header fields of draft-ietf-httpapi-ratelimit-headers-10 (Structured Field lists): RateLimit-Policy
 * advertises the bucket as `burst` requests per refill window, RateLimit says what is left of it now.
 */
export function rateLimitFields(policy: BucketPolicy, reading: BucketReading): { 'RateLimit-Policy': string; RateLimit: string } {
  return {
    'RateLimit-Policy': `${POLICY_NAME};q=${policy.burst};w=${refillSeconds(policy)}`,
    RateLimit: `${POLICY_NAME};r=${reading.remaining};t=${reading.secondsToNextToken}`,
  };
}
