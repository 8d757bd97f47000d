import { validateEnvironment } from '../../src/config/env.schema';
import { childLogFormat, readLauncherEnvironment, validateLauncherSettings } from './launcher-settings';

describe('the launcher settings', () => {
  it('have their defaults', () => {
    expect({ ...validateLauncherSettings({}) }).toEqual({ WORKERS: 1, LVS_DATA_DIR: '.data', LOCAL_POSTGRES_PORT: 5432, LOCAL_REDIS_PORT: 6379 });
  });

  it('read numbers and paths, and name each bad one', () => {
    expect({ ...validateLauncherSettings({ WORKERS: '3', LVS_DATA_DIR: '/tmp/lvs', LOCAL_REDIS_PORT: '6380' }) }).toMatchObject({
      WORKERS: 3,
      LVS_DATA_DIR: '/tmp/lvs',
      LOCAL_REDIS_PORT: 6380,
    });
    expect(() => validateLauncherSettings({ WORKERS: '65', LOCAL_POSTGRES_PORT: 'x' })).toThrow(
      /^Invalid configuration: WORKERS: WORKERS must not be greater than 64\nInvalid configuration: LOCAL_POSTGRES_PORT: /,
    );
  });

  it("are none of the service's: the API and the worker never read them", () => {
    const service = validateEnvironment({ WORKERS: '3', LVS_DATA_DIR: '/tmp/lvs', LOCAL_POSTGRES_PORT: '1', LOCAL_REDIS_PORT: '2' });
    expect(Object.keys(service).filter((name) => ['WORKERS', 'LVS_DATA_DIR', 'LOCAL_POSTGRES_PORT', 'LOCAL_REDIS_PORT'].includes(name))).toEqual([]);
  });

  it('tell which stores the operator named', () => {
    expect(readLauncherEnvironment({ REDIS_SENTINELS: '127.0.0.1:26379' })).toMatchObject({ databaseUrlGiven: false, redisUrlGiven: true });
    expect(readLauncherEnvironment({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/x' })).toMatchObject({
      databaseUrlGiven: true,
      redisUrlGiven: false,
    });
  });
});

describe('childLogFormat', () => {
  it.each([
    [undefined, false, true, 'text'],
    [undefined, false, false, 'json'],
    [undefined, true, false, 'text'],
    ['', false, true, 'text'],
    ['json', true, true, 'json'],
    ['text', false, false, 'text'],
  ])('LOG_FORMAT %p, demo %p, terminal %p: %s', (given, demo, terminal, format) => {
    expect(childLogFormat(given, demo, terminal)).toBe(format);
  });
});
