import { roleMay } from '../auth/key-role';
import type { ConsoleVisit } from './console-sessions';

/** Pages hold a user's data, so no cache may keep them (downloads neither). */
export const NO_STORE = { 'cache-control': 'no-store' };

/**
 * A page's headers. Under the service's no-referrer policy browsers send `Origin: null` with a form, so the
 * console's pages send their origin to their own site only.
 */
export const PAGE_HEADERS = { ...NO_STORE, 'referrer-policy': 'same-origin' };

/**
 * What a template sees: the route's data, the page's name (for the navigation), the session's token, the side the
 * session works on (a test side's pages carry the Test mode banner) and the one its Test mode switch offers, and the
 * signed-in member (name and role), and whether the session may read the activity log (its page is in the navigation
 * then).
 */
export function pageModel(template: string, visit: ConsoleVisit | null, data: object): object {
  const member = visit?.member ? { displayName: visit.member.displayName, role: visit.member.role } : null;
  const session = {
    csrfToken: visit?.csrfToken ?? null,
    signedIn: visit !== null,
    mode: visit?.user.mode ?? null,
    offeredSide: visit?.offeredSide ?? null,
  };
  const auditor = visit !== null && roleMay(visit.user.role, 'audit');
  return { ...data, page: template, ...session, member, auditor };
}

/**
 * A page that answers in place of the route's own, thrown so that the route reads as its success: a refused
 * form shown again with its error, or the rate-limited page. ConsoleAnswerFilter renders it.
 */
export class ConsolePage extends Error {
  constructor(
    readonly template: string,
    readonly data: object,
    readonly status: number,
    readonly headers: Record<string, string> = {},
  ) {
    super(`console page ${template} (${status})`);
  }
}

/** A request that must go elsewhere first (a visit without a live session: the sign-in page). */
export class ConsoleRedirect extends Error {
  constructor(readonly url: string) {
    super(`console redirect to ${url}`);
  }
}
