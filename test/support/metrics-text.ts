/** The value of one series (name and labels, as exposed) in a Prometheus text exposition, or undefined when absent. */
export function series(text: string, name: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}
