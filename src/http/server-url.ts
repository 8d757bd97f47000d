import type { ServerObject } from '@nestjs/swagger';

/**
 * The address the OpenAPI document gives clients: the configured public one, or else the origin the request
 * came to (behind a proxy, the forwarded one), so that "Try it out" and generated clients call this server.
 */
export function serverUrl(publicBaseUrl: string, request: { protocol: string; host: string }): string {
  return publicBaseUrl !== '' ? publicBaseUrl : `${request.protocol}://${request.host}`;
}

/**
 * The document's `servers`: this one server, named for the environment it runs in and marked for partners (not
 * internal), so that a client generated from a test instance's document is not mistaken for production's.
 */
export function documentServers(settings: { NODE_ENV: string; PUBLIC_BASE_URL: string }, request: { protocol: string; host: string }): ServerObject[] {
  const description = settings.NODE_ENV === 'production' ? 'Production' : 'A local or test instance, not production (NODE_ENV is not production)';
  return [{ url: serverUrl(settings.PUBLIC_BASE_URL, request), description, 'x-internal': false } as ServerObject];
}
