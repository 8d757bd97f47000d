import { errorCode, unreachableReason } from '@lvs/register';

/** Long enough for a slow DNS answer and a TLS handshake, short enough not to hold the banner back. */
const PROBE_TIMEOUT_MS = 5000;

/**
 * Why the register cannot be reached from here ("DNS failure (ENOTFOUND)"), or null when it gives any HTTP
 * answer. One HEAD request at start-up, so that the banner says it plainly instead of partners meeting 503s.
 */
export async function registerUnreachable(registerUrl: string): Promise<string | null> {
  try {
    await fetch(registerUrl, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    return null;
  } catch (error) {
    const code = (error as Error).name === 'TimeoutError' ? 'ETIMEDOUT' : (errorCode(error) ?? 'unknown');
    return `${unreachableReason(code) ?? 'no answer'} (${code})`;
  }
}
