import type { SandboxLicence } from '@lvs/test-register';

/** Body of PUT /__sandbox/licences/{number}: new values for the licence's fields, or its removal. */
export type LicenceChange =
  | { removed: true }
  | Partial<Pick<SandboxLicence, 'status' | 'statusReason' | 'expiryDate' | 'role' | 'licenceSector' | 'additionalConditions' | 'firstName' | 'surname'>>;

export class LicenceChangeError extends Error {}

// The holder's names too, though a real licence keeps them: a test shows the register answering what it never should.
const CHANGEABLE = ['status', 'statusReason', 'expiryDate', 'role', 'licenceSector', 'additionalConditions', 'firstName', 'surname'] as const;
const NULLABLE = new Set(['statusReason', 'licenceSector', 'additionalConditions']);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Checks an admin change: {"removed":true}, or some of the changeable fields with sensible values. */
export function parseLicenceChange(raw: unknown): LicenceChange {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new LicenceChangeError('body must be a JSON object');
  const body = raw as Record<string, unknown>;
  if (body.removed === true && Object.keys(body).length === 1) return { removed: true };
  const unknown = Object.keys(body).filter((key) => !(CHANGEABLE as readonly string[]).includes(key));
  if (unknown.length > 0 || Object.keys(body).length === 0) {
    throw new LicenceChangeError(`body must be {"removed":true} or some of ${CHANGEABLE.join(', ')}`);
  }
  for (const [field, value] of Object.entries(body)) {
    if (value === null && NULLABLE.has(field)) continue;
    if (typeof value !== 'string' || value.trim() === '') throw new LicenceChangeError(`${field} must be a non-empty string`);
    if (field === 'expiryDate' && (!ISO_DATE.test(value) || Number.isNaN(Date.parse(value)))) {
      throw new LicenceChangeError('expiryDate must be a YYYY-MM-DD date');
    }
  }
  return body;
}

/**
 * The cards a number shows after a change: none once removed, else every card with the new
 * values. null when the number has no licence to change.
 */
export function applyLicenceChange(cards: readonly SandboxLicence[] | undefined, change: LicenceChange): SandboxLicence[] | null {
  if (cards === undefined || cards.length === 0) return null;
  if ('removed' in change) return [];
  return cards.map((card) => ({ ...card, ...change }));
}
