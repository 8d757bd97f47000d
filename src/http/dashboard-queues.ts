import type { Queue } from 'bullmq';

/**
 * The token under which a feature provides the queues the admin dashboard shows, so that the
 * HTTP set-up imports no feature; the lookups module provides its queue.
 */
export const DASHBOARD_QUEUES = Symbol('DASHBOARD_QUEUES');

export type DashboardQueues = Queue[];
