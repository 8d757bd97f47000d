import type { DestinationStream } from 'pino';

/** What LinesPerTurn needs of the writer behind it (pino.destination's SonicBoom). */
export interface LineWriter {
  write(text: string): boolean;
  flushSync(): void;
}

/**
 * Hands the lines logged in one event-loop turn to the writer as one string: under load a turn answers
 * several requests, and each line written on its own cost a system call (or, with SonicBoom writing
 * asynchronously, a copy of all the text awaiting the previous write: 9 % of the API's allocations).
 * Lines keep their order; lines still held at exit are written synchronously.
 */
export class LinesPerTurn implements DestinationStream {
  private lines: string[] = [];

  constructor(private readonly writer: LineWriter) {
    process.once('exit', () => this.flushSync());
  }

  write(line: string): void {
    if (this.lines.push(line) === 1) setImmediate(this.handOver);
  }

  flushSync(): void {
    this.handOver();
    this.writer.flushSync();
  }

  private readonly handOver = (): void => {
    if (this.lines.length === 0) return;
    const text = this.lines.join('');
    this.lines = [];
    this.writer.write(text);
  };
}
