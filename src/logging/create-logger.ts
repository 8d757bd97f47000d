import { ConsoleLogger, LogLevel } from '@nestjs/common';
import { AppSettings } from '../config/env.schema';

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** One logger setup for both processes; `processName` tells their lines apart. */
export function createLogger(settings: AppSettings, processName: 'api' | 'worker'): ConsoleLogger {
  const threshold = LEVELS.indexOf(settings.LOG_LEVEL as LogLevel);
  return new ConsoleLogger(processName, {
    json: settings.LOG_FORMAT === 'json',
    logLevels: LEVELS.slice(0, threshold + 1),
    prefix: `lvs-${processName}`,
  });
}
