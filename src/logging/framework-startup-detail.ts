/** Where Nest logs each module it initialises and each route it maps: dozens of lines at every start. */
const STARTUP_DETAIL_CONTEXTS: ReadonlySet<string> = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/**
 * Whether a line is Nest's own start-up detail: in readable output it is shown at debug level, so that
 * a person sees the lines that matter (warnings, where each process listens). JSON logs keep it as it is.
 */
export function isFrameworkStartupDetail(context: string | undefined): boolean {
  return context !== undefined && STARTUP_DETAIL_CONTEXTS.has(context);
}
