import { describeProductionSecretProblem } from './production-secrets';

describe('describeProductionSecretProblem', () => {
  const key = 'ab'.repeat(32);
  const production = { NODE_ENV: 'production', WEBHOOK_SECRET_KEYS: [] };

  it('refuses an unset HOLDER_DATA_KEY in production only, whatever the webhook keys', () => {
    expect(describeProductionSecretProblem('HOLDER_DATA_KEY', '', { NODE_ENV: 'production', WEBHOOK_SECRET_KEYS: [key] })).toBe(
      'HOLDER_DATA_KEY must be set (64 hex digits) when NODE_ENV is production',
    );
    expect(describeProductionSecretProblem('HOLDER_DATA_KEY', key, production)).toBeNull();
    for (const NODE_ENV of ['', 'development', 'test', 'Production']) {
      expect(describeProductionSecretProblem('HOLDER_DATA_KEY', '', { NODE_ENV, WEBHOOK_SECRET_KEYS: [] })).toBeNull();
    }
  });

  it('refuses unset RECEIPT_SIGNING_KEYS in production only', () => {
    expect(describeProductionSecretProblem('RECEIPT_SIGNING_KEYS', '', production)).toBe(
      'RECEIPT_SIGNING_KEYS must list at least one key (npm run keys -- receipt-key) when NODE_ENV is production',
    );
    expect(describeProductionSecretProblem('RECEIPT_SIGNING_KEYS', 'A'.repeat(43), production)).toBeNull();
    for (const NODE_ENV of ['', 'development', 'test']) {
      expect(describeProductionSecretProblem('RECEIPT_SIGNING_KEYS', '', { NODE_ENV, WEBHOOK_SECRET_KEYS: [] })).toBeNull();
    }
  });

  it('refuses an unset WEBHOOK_SECRET_KEY in production only', () => {
    expect(describeProductionSecretProblem('WEBHOOK_SECRET_KEY', '', production)).toBe(
      'WEBHOOK_SECRET_KEY must be set (64 hex digits) when NODE_ENV is production',
    );
    expect(describeProductionSecretProblem('WEBHOOK_SECRET_KEY', key, production)).toBeNull();
    for (const NODE_ENV of ['', 'development', 'test', 'Production']) {
      expect(describeProductionSecretProblem('WEBHOOK_SECRET_KEY', '', { NODE_ENV, WEBHOOK_SECRET_KEYS: [] })).toBeNull();
    }
  });

  it('accepts WEBHOOK_SECRET_KEYS in place of WEBHOOK_SECRET_KEY in production', () => {
    expect(describeProductionSecretProblem('WEBHOOK_SECRET_KEY', '', { NODE_ENV: 'production', WEBHOOK_SECRET_KEYS: [key] })).toBeNull();
  });

  it('refuses an ADMIN_TOKEN of 1 to 31 characters in production, and accepts 32 or none', () => {
    const problem =
      'ADMIN_TOKEN must be at least 32 characters when NODE_ENV is production (or unset, which keeps the dashboard off)';
    expect(describeProductionSecretProblem('ADMIN_TOKEN', 'x', production)).toBe(problem);
    expect(describeProductionSecretProblem('ADMIN_TOKEN', 'x'.repeat(31), production)).toBe(problem);
    expect(describeProductionSecretProblem('ADMIN_TOKEN', 'x'.repeat(32), production)).toBeNull();
    expect(describeProductionSecretProblem('ADMIN_TOKEN', '', production)).toBeNull();
  });

  it('leaves a short ADMIN_TOKEN alone outside production', () => {
    expect(describeProductionSecretProblem('ADMIN_TOKEN', 'x', { NODE_ENV: 'development', WEBHOOK_SECRET_KEYS: [] })).toBeNull();
    expect(describeProductionSecretProblem('ADMIN_TOKEN', 'x', { NODE_ENV: '', WEBHOOK_SECRET_KEYS: [] })).toBeNull();
  });
});
