/** Where a partner stands: stopped by the operator, without a live key to work with, or working. */
export type PartnerStatus = 'active' | 'disabled' | 'paused';

/** A partner above this share of its plan is marked in the list. */
export const NEAR_PLAN_PERCENT = 80;

export function partnerStatus(disabled: boolean, liveKeys: number): PartnerStatus {
  if (disabled) return 'disabled';
  return liveKeys === 0 ? 'paused' : 'active';
}

/** The share of the plan used this month, whole percent (may pass 100 after a plan is lowered); null on an unlimited plan. */
export function planShare(used: number, quota: number | null): number | null {
  if (quota === null) return null;
  if (quota === 0) return used === 0 ? 0 : 100;
  return Math.round((used / quota) * 100);
}

/** Whether the partner is near the end of its plan (above NEAR_PLAN_PERCENT). */
export function nearPlan(share: number | null): boolean {
  return share !== null && share > NEAR_PLAN_PERCENT;
}

/** The orders the partner list is sorted in: by name, by use this month, or by share of the plan, the most first. */
export const DIRECTORY_SORTS = ['name', 'usage', 'share'] as const;
export type DirectorySort = (typeof DIRECTORY_SORTS)[number];

/** A page of the list as its cursor carries it: how many rows come before it, in base64url. */
export function writeOffsetCursor(offset: number): string {
  return Buffer.from(`o${offset}`, 'utf8').toString('base64url');
}

export function readOffsetCursor(text: string): number | null {
  const match = /^o(\d{1,9})$/.exec(Buffer.from(text, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : null;
}
