/**
 * The address the OpenAPI document gives clients: the configured public one, or else the origin the request
 * came to (behind a proxy, the forwarded one), so that "Try it out" and generated clients call this server.
 */
export function serverUrl(publicBaseUrl: string, request: { protocol: string; host: string }): string {
  return publicBaseUrl !== '' ? publicBaseUrl : `${request.protocol}://${request.host}`;
}
