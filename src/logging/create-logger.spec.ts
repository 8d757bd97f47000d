import { createLogger } from './create-logger';

function loggerKeepingLines(format: 'json' | 'text', level: 'log' | 'debug') {
  const lines: { level: number; msg: string; context?: string }[] = [];
  const logger = createLogger({ LOG_LEVEL: level, LOG_FORMAT: format }, 'api', { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { lines, logger };
}

describe('createLogger', () => {
  it("keeps Nest's start-up detail out of readable output at the default level, and the other lines in", () => {
    const { lines, logger } = loggerKeepingLines('text', 'log');
    logger.log('AppModule dependencies initialized', 'InstanceLoader');
    logger.log('Mapped {/v1/licences/verify, POST} route', 'RouterExplorer');
    logger.warn('Something a person should read', 'RoutesResolver');
    logger.log('API listening on 127.0.0.1:3000', 'Main');
    expect(lines.map((line) => [line.level, line.context, line.msg])).toEqual([
      [40, 'RoutesResolver', 'Something a person should read'],
      [30, 'Main', 'API listening on 127.0.0.1:3000'],
    ]);
  });

  it('shows that detail at debug level in readable output', () => {
    const { lines, logger } = loggerKeepingLines('text', 'debug');
    logger.log('AppModule dependencies initialized', 'InstanceLoader');
    expect(lines.map((line) => [line.level, line.msg])).toEqual([[20, 'AppModule dependencies initialized']]);
  });

  it('keeps the detail at debug level in JSON output too, and every other line as it was logged', () => {
    const atInfo = loggerKeepingLines('json', 'log');
    atInfo.logger.log('AppModule dependencies initialized', 'InstanceLoader');
    atInfo.logger.log('Mapped {/v1/licences/verify, POST} route', 'RouterExplorer');
    atInfo.logger.log('API listening on 127.0.0.1:3000', 'Main');
    expect(atInfo.lines.map((line) => [line.level, line.context])).toEqual([[30, 'Main']]);
    const atDebug = loggerKeepingLines('json', 'debug');
    atDebug.logger.log('AppModule dependencies initialized', 'InstanceLoader');
    expect(atDebug.lines.map((line) => [line.level, line.context])).toEqual([[20, 'InstanceLoader']]);
  });

  it('adds the fields of where each line is written, when given a source of them (the active trace)', () => {
    const lines: Record<string, unknown>[] = [];
    let traceId = 'a'.repeat(32);
    const logger = createLogger(
      { LOG_LEVEL: 'log', LOG_FORMAT: 'json' },
      'worker',
      { write: (line: string) => void lines.push(JSON.parse(line)) },
      () => ({ traceId }),
    );
    logger.log('first', 'Lookup');
    traceId = 'b'.repeat(32);
    logger.warn('second', 'Lookup');
    expect(lines.map((line) => [line.msg, line.traceId])).toEqual([
      ['first', 'a'.repeat(32)],
      ['second', 'b'.repeat(32)],
    ]);
  });
});
