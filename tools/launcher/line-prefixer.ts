/**
 * Splits a child's output into lines and puts the child's name in front of each, keeping a partial
 * last line until its end arrives, so that lines of processes writing at once never interleave.
 */
export class LinePrefixer {
  private pending = '';

  constructor(private readonly prefix: string) {}

  /** The complete lines of this chunk (and of what was pending), prefixed. */
  push(chunk: string): string[] {
    const text = this.pending + chunk;
    const lines = text.split('\n');
    this.pending = lines.pop() ?? '';
    return lines.map((line) => `${this.prefix}${line.replace(/\r$/, '')}`);
  }

  /** What is left when the stream ends. */
  flush(): string[] {
    const rest = this.pending;
    this.pending = '';
    return rest === '' ? [] : [`${this.prefix}${rest}`];
  }
}

/** Names padded to one width, so that the output lines up in columns. */
export function prefixesFor(names: readonly string[]): Map<string, string> {
  const width = Math.max(...names.map((name) => name.length));
  return new Map(names.map((name) => [name, `${name.padEnd(width)} | `]));
}
