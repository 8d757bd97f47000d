/** RFC 9110's token: the characters a media type's type and subtype are made of. */
const TOKEN = "[\\w!#$%&'*+.^`|~-]+";

/** type "/" subtype, white space around it, then the end or the parameters (which Fastify reads leniently). */
const MEDIA_TYPE = new RegExp(`^\\s*${TOKEN}/${TOKEN}\\s*(?:;|$)`);

/**
 * Whether Fastify can read a Content-Type header's media type. Fastify refuses one it cannot read with its own 415
 * before any body parser or guard runs (its documentation says so, and points to an onRequest hook), while the
 * contract checks the API key first and then answers an unusable Content-Type with the route's 400.
 */
export function isWellFormedContentType(header: string): boolean {
  return MEDIA_TYPE.test(header);
}
