/** Where the console is served from: the configured public address, or else the origin the request came to. */
export function consoleOrigin(publicBaseUrl: string, request: { protocol: string; host: string }): string {
  return publicBaseUrl !== '' ? new URL(publicBaseUrl).origin : `${request.protocol}://${request.host}`;
}

/**
 * Whether a state-changing request came from the console's own pages. Browsers send Origin with every POST;
 * a request without one, or from another origin, is refused, whatever its CSRF token.
 */
export function isConsoleOrigin(originHeader: string | undefined, expected: string): boolean {
  return originHeader !== undefined && originHeader.toLowerCase() === expected.toLowerCase();
}
