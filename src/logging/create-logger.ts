import { LoggerService, LogLevel } from '@nestjs/common';
import pino, { Logger, Level } from 'pino';
import type PinoPretty from 'pino-pretty';
import { AppSettings } from '../config/env.schema';
import { isFrameworkStartupDetail } from './framework-startup-detail';
import { isoTimePerMillisecond } from './iso-time';
import { LinesPerTurn } from './lines-per-turn';

const PINO_LEVEL: Record<LogLevel, Level> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

export type ProcessName = 'api' | 'worker';

/**
 * Nest's LoggerService on pino, so that `new Logger(context)` from @nestjs/common keeps working
 * everywhere while every line is one JSON object carrying the process, the context and, where the
 * caller passes it, the request id.
 */
export class AppLogger implements LoggerService {
  constructor(readonly pino: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  /**
   * Nest passes the logger's context as the last argument, and for errors a stack before it. A plain
   * object among the arguments adds its fields to the line (`logger.log(message, { requestId })`).
   */
  private write(asked: Level, message: unknown, rest: unknown[]): void {
    if (!this.pino.isLevelEnabled(asked)) return;
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    // Nest's start-up detail (a line per module and route) at debug level, in JSON as in readable text.
    const level = asked === 'info' && isFrameworkStartupDetail(context) ? 'debug' : asked;
    if (level !== asked && !this.pino.isLevelEnabled(level)) return;
    const stack = level === 'error' && typeof rest[0] === 'string' ? rest[0] : undefined;
    const fields = Object.assign({}, ...rest.filter((param) => typeof param === 'object' && param !== null && !(param instanceof Error))) as Record<
      string,
      unknown
    >;
    if (context) fields.context = context;
    if (stack) fields.stack = stack;
    if (message instanceof Error) fields.err = message;
    this.pino[level](fields, message instanceof Error ? message.message : typeof message === 'string' ? message : JSON.stringify(message));
  }
}

/**
 * For people reading a terminal, one line per event: time, level, context, message, then any other fields.
 * Loaded only then, so that JSON-logging processes do not carry it. The process is left out: the launcher
 * already names it in front of each line.
 */
function readableText(): pino.DestinationStream {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pretty = require('pino-pretty') as typeof PinoPretty;
  return pretty({
    sync: true,
    colorize: false,
    singleLine: true,
    ignore: 'pid,hostname,process,context',
    messageFormat: '{if context}({context}) {end}{msg}',
    translateTime: 'SYS:HH:MM:ss.l',
  });
}

/**
 * One logger for every process: JSON lines or readable text, on stdout unless a destination is given (the
 * e2e tests keep the lines to read them). JSON lines are written synchronously, as pino does by default,
 * once per event-loop turn: one write(2) for a turn's lines cost less than SonicBoom's asynchronous mode,
 * which hands each write to libuv's thread pool (starting its threads, about 6 MiB at the API's peak).
 * At exit nothing is lost; a SIGKILLed process loses the lines of its last turn. `lineFields` adds fields to every line
 * from where it is written (with tracing on, the active trace's ids).
 */
export function createLogger(
  settings: Pick<AppSettings, 'LOG_LEVEL' | 'LOG_FORMAT'>,
  processName: ProcessName,
  destination?: pino.DestinationStream,
  lineFields?: () => Record<string, string>,
): AppLogger {
  const options: pino.LoggerOptions = {
    level: PINO_LEVEL[settings.LOG_LEVEL as LogLevel],
    base: { process: processName, pid: process.pid },
    timestamp: isoTimePerMillisecond(),
    ...(lineFields && { mixin: lineFields }),
  };
  const output = destination ?? (settings.LOG_FORMAT === 'text' ? readableText() : new LinesPerTurn(pino.destination({ sync: true })));
  return new AppLogger(pino(options, output));
}
