import { isFrameworkStartupDetail } from './framework-startup-detail';

describe('isFrameworkStartupDetail', () => {
  it.each(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication'])("is true for Nest's %s", (context) => {
    expect(isFrameworkStartupDetail(context)).toBe(true);
  });

  it.each([['Main'], ['WorkerListener'], ['Redis'], ['LookupProcessor'], [undefined]])('is false for %s', (context) => {
    expect(isFrameworkStartupDetail(context)).toBe(false);
  });
});
