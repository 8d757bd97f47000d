export { parseNameSearchPage, parseRegisterPage } from './parse-register-page';
export { nameSearchForm } from './name-search-form';
export { PRODUCTION_REGISTER_URL } from './production-url';
export { RegisterClient } from './register-client';
export type { RegisterClientOptions } from './register-client';
export { RegisterError, RegisterParseError, RegisterUnavailableError, RegisterUnreachableError } from './register-errors';
export { errorCode, unreachableReason } from './unreachable-reason';
export type { UnreachableReason } from './unreachable-reason';
export type { LookupOutcome, NameSearch, NameSearchOutcome, RegisterLicence } from './register-licence';
