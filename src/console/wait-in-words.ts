/** A wait of whole seconds (Retry-After) as the console's pages say it: "1 second", "40 seconds", "3 minutes". */
export function waitInWords(seconds: number): string {
  if (seconds === 1) return '1 second';
  if (seconds < 120) return `${seconds} seconds`;
  // Rounded up: never sooner than the wait really is.
  return `${Math.ceil(seconds / 60)} minutes`;
}
