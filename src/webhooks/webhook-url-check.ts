import { Injectable } from '@nestjs/common';
import { isIP } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppConfig } from '../config/app-config';
import { outboundResolver } from '../network/guarded-lookup';
import { isBlockedAddress, urlProblem } from '../network/url-guard';

/** How long adding an endpoint waits for its host's addresses before accepting it unresolved. */
const CREATION_LOOKUP_TIMEOUT_MS = 3000;

/**
 * The webhook URL check when an endpoint is added: the URL as written (urlProblem), then, for a host name, every
 * address it resolves to now. A name that does not resolve yet is accepted: every delivery resolves and checks it
 * again, which is the check that counts, since DNS can change after the endpoint was added.
 */
@Injectable()
export class WebhookUrlCheck {
  private readonly allowPrivate: boolean;
  private readonly resolve: ReturnType<typeof outboundResolver>;

  constructor(config: AppConfig) {
    this.allowPrivate = config.get('WEBHOOK_ALLOW_PRIVATE_URLS');
    this.resolve = outboundResolver(config.get('WEBHOOK_DNS_SERVERS'));
  }

  /** Why the URL may not be added, or null. */
  async problem(raw: string): Promise<string | null> {
    const written = urlProblem(raw, this.allowPrivate);
    if (written !== null || this.allowPrivate) return written;
    const host = new URL(raw).hostname;
    if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) return null;
    const addresses = await Promise.race([this.resolve(host, 0).catch(() => []), sleep(CREATION_LOOKUP_TIMEOUT_MS, [])]);
    return addresses.some((entry) => isBlockedAddress(entry.address)) ? 'address' : null;
  }
}
