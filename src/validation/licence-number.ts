/** The register's numbers are exactly 16 ASCII digits: the one place this rule is written. */
export const LICENCE_NUMBER_PATTERN = /^[0-9]{16}$/;

/** The sandbox's FOUND licence, the example of every document that shows a number. */
export const EXAMPLE_LICENCE_NUMBER = '1011001544208079';

export function isLicenceNumber(value: unknown): value is string {
  return typeof value === 'string' && LICENCE_NUMBER_PATTERN.test(value);
}
