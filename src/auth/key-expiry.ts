/** Whether a key with this expiry is no longer valid at `now`; a key without expiry never expires. */
export function isExpired(expiresAt: Date | null, now: Date): boolean {
  return expiresAt !== null && expiresAt.getTime() <= now.getTime();
}
