export type { FaultBookView, FaultSetting } from './faults';
export { startSandbox } from './sandbox-server';
export type { RequestCounts, RequestTimes, RunningSandbox, SandboxOptions } from './sandbox-server';
export type { PageVariant } from './render-page';
