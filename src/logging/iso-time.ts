/**
 * pino's `timestamp` option as ISO time, worked out once per millisecond: pino.stdTimeFunctions.isoTime builds
 * a Date and its string for every line, and under load one millisecond holds several request lines.
 */
export function isoTimePerMillisecond(now: () => number = Date.now): () => string {
  let lastMillisecond = Number.NaN;
  let field = '';
  return () => {
    const millisecond = now();
    if (millisecond !== lastMillisecond) {
      lastMillisecond = millisecond;
      field = `,"time":"${new Date(millisecond).toISOString()}"`;
    }
    return field;
  };
}
