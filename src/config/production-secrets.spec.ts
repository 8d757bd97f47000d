import { describeProductionSecretProblem } from './production-secrets';

describe('describeProductionSecretProblem', () => {
  const key = 'ab'.repeat(32);

  it.each(['WEBHOOK_SECRET_KEY', 'HOLDER_DATA_KEY'] as const)('refuses an unset %s in production only', (setting) => {
    expect(describeProductionSecretProblem(setting, '', 'production')).toBe(`${setting} must be set (64 hex digits) when NODE_ENV is production`);
    expect(describeProductionSecretProblem(setting, key, 'production')).toBeNull();
    for (const nodeEnv of ['', 'development', 'test', 'Production']) {
      expect(describeProductionSecretProblem(setting, '', nodeEnv)).toBeNull();
    }
  });

  it('refuses an ADMIN_TOKEN of 1 to 31 characters in production, and accepts 32 or none', () => {
    const problem =
      'ADMIN_TOKEN must be at least 32 characters when NODE_ENV is production (or unset, which keeps the dashboard off)';
    expect(describeProductionSecretProblem('ADMIN_TOKEN', 'x', 'production')).toBe(problem);
    expect(describeProductionSecretProblem('ADMIN_TOKEN', 'x'.repeat(31), 'production')).toBe(problem);
    expect(describeProductionSecretProblem('ADMIN_TOKEN', 'x'.repeat(32), 'production')).toBeNull();
    expect(describeProductionSecretProblem('ADMIN_TOKEN', '', 'production')).toBeNull();
  });

  it('leaves a short ADMIN_TOKEN alone outside production', () => {
    expect(describeProductionSecretProblem('ADMIN_TOKEN', 'x', 'development')).toBeNull();
    expect(describeProductionSecretProblem('ADMIN_TOKEN', 'x', '')).toBeNull();
  });
});
