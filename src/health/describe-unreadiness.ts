/** The readiness answer's message: names each failing part, in a fixed order. */
export function describeUnreadiness(failingParts: readonly string[], workerWindowMs: number): string {
  const reasons: Record<string, string> = {
    database: 'PostgreSQL does not answer',
    redis: 'Redis does not answer',
    workers: `no lookup worker seen for ${Math.round(workerWindowMs / 1000)} s`,
  };
  const named = Object.keys(reasons).filter((part) => failingParts.includes(part));
  return named.length === 0 ? 'Not ready; try again later' : `Not ready: ${named.map((part) => reasons[part]).join('; ')}`;
}
