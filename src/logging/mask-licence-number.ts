/** Licence numbers identify people: logs keep only the last four digits. */
export function maskLicenceNumber(licenceNumber: string): string {
  return licenceNumber.length <= 4 ? '****' : `${'*'.repeat(licenceNumber.length - 4)}${licenceNumber.slice(-4)}`;
}
