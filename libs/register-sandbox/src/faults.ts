import { FAULT_NAMES, isFaultName } from '@lvs/test-register';
import type { FaultName } from '@lvs/test-register';

/** How to misbehave on one search request. */
export interface FaultRule {
  fault: FaultName;
  /** Delay before answering; alone a fixed delay, with latencyMaxMs the lower bound. */
  latencyMs?: number;
  latencyMaxMs?: number;
}

/** Body of PUT /__sandbox/fault. */
export interface FaultSetting extends FaultRule {
  /** Apply to the next N matching search requests only, then behave normally again. */
  times?: number;
  /** Only for this licence number; otherwise for every search. */
  licenceNumber?: string;
}

interface ActiveFault {
  rule: FaultRule;
  remaining: number | null;
}

export interface FaultView extends FaultRule {
  remaining: number | null;
}

/** What GET/PUT/DELETE /__sandbox/fault answer. */
export interface FaultBookView {
  global: FaultView | null;
  byLicence: Record<string, FaultView>;
}

/** Admin input the sandbox refuses, answered as 400. */
export class FaultSettingError extends Error {}

const SETTING_KEYS = new Set(['fault', 'latencyMs', 'latencyMaxMs', 'times', 'licenceNumber']);

/** Validates a PUT /__sandbox/fault body; throws FaultSettingError naming the first problem. */
export function parseFaultSetting(input: unknown): FaultSetting {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new FaultSettingError('body must be a JSON object');
  }
  const fields: Record<string, unknown> = { ...input };
  const unknownKey = Object.keys(fields).find((key) => !SETTING_KEYS.has(key));
  if (unknownKey !== undefined) throw new FaultSettingError(`unknown field "${unknownKey}"`);

  const { fault, latencyMs, latencyMaxMs, times, licenceNumber } = fields;
  if (!isFaultName(fault)) throw new FaultSettingError(`fault must be one of ${FAULT_NAMES.join(', ')}`);
  const setting: FaultSetting = { fault };
  if (latencyMs !== undefined) setting.latencyMs = nonNegativeInteger('latencyMs', latencyMs);
  if (latencyMaxMs !== undefined) {
    if (setting.latencyMs === undefined) throw new FaultSettingError('latencyMaxMs needs latencyMs');
    setting.latencyMaxMs = nonNegativeInteger('latencyMaxMs', latencyMaxMs);
    if (setting.latencyMaxMs < setting.latencyMs) throw new FaultSettingError('latencyMaxMs must be >= latencyMs');
  }
  if (times !== undefined) {
    setting.times = nonNegativeInteger('times', times);
    if (setting.times === 0) throw new FaultSettingError('times must be at least 1');
  }
  if (licenceNumber !== undefined) {
    if (typeof licenceNumber !== 'string' || licenceNumber.trim() === '') {
      throw new FaultSettingError('licenceNumber must be a non-empty string');
    }
    setting.licenceNumber = licenceNumber.trim();
  }
  return setting;
}

function nonNegativeInteger(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new FaultSettingError(`${name} must be a non-negative integer`);
  }
  return value;
}

/** The delay a rule asks for: fixed, or uniformly random within its bounds. */
export function pickLatencyMs(rule: FaultRule): number {
  const low = rule.latencyMs ?? 0;
  const high = rule.latencyMaxMs ?? low;
  return low + Math.floor(Math.random() * (high - low + 1));
}

/** Faults set at run time through the admin API: one global, plus one per licence number. */
export class FaultBook {
  private global: ActiveFault | null = null;
  private readonly byLicence = new Map<string, ActiveFault>();

  set(setting: FaultSetting): void {
    const { times, licenceNumber, ...rule } = setting;
    const active: ActiveFault = { rule, remaining: times ?? null };
    if (licenceNumber === undefined) this.global = active;
    else this.byLicence.set(licenceNumber, active);
  }

  clear(): void {
    this.global = null;
    this.byLicence.clear();
  }

  /** The rule for one search (a per-number fault before the global one), counted against its `times`. */
  take(licenceNumber: string): FaultRule | null {
    const perNumber = this.byLicence.get(licenceNumber);
    if (perNumber !== undefined) {
      if (useOnce(perNumber)) this.byLicence.delete(licenceNumber);
      return perNumber.rule;
    }
    const global = this.global;
    if (global === null) return null;
    if (useOnce(global)) this.global = null;
    return global.rule;
  }

  view(): FaultBookView {
    const viewOf = ({ rule, remaining }: ActiveFault): FaultView => ({ ...rule, remaining });
    return {
      global: this.global === null ? null : viewOf(this.global),
      byLicence: Object.fromEntries([...this.byLicence].map(([number, active]) => [number, viewOf(active)])),
    };
  }
}

/** Counts one use; true when the fault is now used up. */
function useOnce(active: ActiveFault): boolean {
  if (active.remaining === null) return false;
  active.remaining -= 1;
  return active.remaining === 0;
}
