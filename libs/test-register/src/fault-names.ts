/** The ways the test register can misbehave, by name: a data set reserves some numbers for them. */
export const FAULT_NAMES = [
  'none',
  'status-500',
  'status-503',
  'status-429',
  'status-404',
  'hang',
  'reset',
  'maintenance',
  'truncated',
  'oversize',
  'redirect',
] as const;
export type FaultName = (typeof FAULT_NAMES)[number];

export function isFaultName(value: unknown): value is FaultName {
  return FAULT_NAMES.some((name) => name === value);
}
