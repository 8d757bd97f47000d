/** The register's numbers are exactly 16 ASCII digits: the one place this rule is written. */
export const LICENCE_NUMBER_LENGTH = 16;
export const LICENCE_NUMBER_PATTERN = new RegExp(`^[0-9]{${LICENCE_NUMBER_LENGTH}}$`);

/** The sandbox's FOUND licence, the example of every document that shows a number. */
export const EXAMPLE_LICENCE_NUMBER = '1011001544208079';

export function isLicenceNumber(value: unknown): value is string {
  return typeof value === 'string' && LICENCE_NUMBER_PATTERN.test(value);
}
