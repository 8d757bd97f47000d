export { FAULT_NAMES } from './faults';
export type { FaultBookView, FaultName, FaultSetting } from './faults';
export { SANDBOX_LICENCES, shownOnCard } from './sandbox-licences';
export type { ShownLicence } from './sandbox-licences';
export { FOUND_SANDBOX_NUMBERS, SANDBOX_NUMBERS } from './sandbox-numbers';
export { startSandbox } from './sandbox-server';
export type { RequestCounts, RequestTimes, RunningSandbox, SandboxOptions } from './sandbox-server';
