/** Where Nest logs each module it initialises and each route it maps: dozens of lines at every start. */
const STARTUP_DETAIL_CONTEXTS: ReadonlySet<string> = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/**
 * Whether a line is Nest's own start-up detail: it is logged at debug level, so that a person (or a log
 * search) sees the lines that matter at start-up (warnings, where each process listens).
 */
export function isFrameworkStartupDetail(context: string | undefined): boolean {
  return context !== undefined && STARTUP_DETAIL_CONTEXTS.has(context);
}
