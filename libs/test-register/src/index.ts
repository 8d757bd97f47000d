export { FAULT_NAMES, isFaultName } from './fault-names';
export type { FaultName } from './fault-names';
export { SANDBOX_LICENCES, shownOnCard } from './sandbox-licences';
export type { ShownLicence } from './sandbox-licences';
export { DEMO_SLOW_NUMBERS, FOUND_SANDBOX_NUMBERS, SANDBOX_NUMBERS } from './sandbox-numbers';
export { loadSandboxData, parseSandboxLicence, searchKey } from './sandbox-data';
export type { SandboxData, SandboxLicence } from './sandbox-data';
export { searchSandboxByName } from './sandbox-name-search';
