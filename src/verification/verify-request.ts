import { VALIDATION_MESSAGES } from '../errors/error-codes';

const LICENCE_NUMBER = /^[0-9]{16}$/;

/** The register's numbers are exactly 16 digits. */
export function isLicenceNumber(value: unknown): value is string {
  return typeof value === 'string' && LICENCE_NUMBER.test(value);
}

/**
 * Reads POST /v1/licences/verify's body, a decoded JSON object: exactly {"licenceNumber": "<16 digits>"}.
 * A field beside it is refused before the number is looked at; every own key counts, `__proto__` and
 * `constructor` included (JSON.parse makes them ordinary keys).
 */
export function readVerifyBody(body: object): { licenceNumber: string } | { problem: string } {
  if (Object.keys(body).some((key) => key !== 'licenceNumber')) return { problem: VALIDATION_MESSAGES.unknownField };
  const { licenceNumber } = body as { licenceNumber?: unknown };
  return isLicenceNumber(licenceNumber) ? { licenceNumber } : { problem: VALIDATION_MESSAGES.licenceNumber };
}
