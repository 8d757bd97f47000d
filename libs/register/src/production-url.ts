/**
 * The real register's origin. In a file of its own, reachable as `@lvs/register/production-url`,
 * so that configuration can name it without loading the client and its HTML parser.
 */
export const PRODUCTION_REGISTER_URL = 'https://services.sia.homeoffice.gov.uk';
