import { DEVELOPMENT_HOLDER_DATA_KEY_HEX, DEVELOPMENT_RECEIPT_KEY, DEVELOPMENT_WEBHOOK_KEY_HEX } from './development-keys';
import { describeApiProductionProblems, describeProductionSecretProblem } from './production-secrets';

describe('describeProductionSecretProblem', () => {
  const key = '3f9a1c07e5b24d68a0c1e2f3b4d5a6978e1f2a3b4c5d6e7f8091a2b3c4d5e6f7';
  const receiptKey = 'Qm9uZWQgcmVjZWlwdCBrZXkgZm9yIHRoZSBzcGVjczA';
  const production = { NODE_ENV: 'production', WEBHOOK_SECRET_KEYS: [], HOLDER_DATA_KEYS: [] };
  const elsewhere = ['', 'development', 'test', 'Production'].map((NODE_ENV) => ({ NODE_ENV, WEBHOOK_SECRET_KEYS: [], HOLDER_DATA_KEYS: [] }));

  it('refuses an unset HOLDER_DATA_KEY in production only, whatever the webhook keys', () => {
    expect(describeProductionSecretProblem('HOLDER_DATA_KEY', '', { NODE_ENV: 'production', WEBHOOK_SECRET_KEYS: [key], HOLDER_DATA_KEYS: [] })).toBe(
      'HOLDER_DATA_KEY must be set (64 hex digits) when NODE_ENV is production',
    );
    expect(describeProductionSecretProblem('HOLDER_DATA_KEY', key, production)).toBeNull();
    for (const context of elsewhere) expect(describeProductionSecretProblem('HOLDER_DATA_KEY', '', context)).toBeNull();
  });

  it('refuses RECEIPT_SIGNING_KEYS unset, or listing the development key, in production only', () => {
    expect(describeProductionSecretProblem('RECEIPT_SIGNING_KEYS', [], production)).toBe(
      'RECEIPT_SIGNING_KEYS must list at least one key (npm run admin -- receipt-key) when NODE_ENV is production',
    );
    expect(describeProductionSecretProblem('RECEIPT_SIGNING_KEYS', [receiptKey, DEVELOPMENT_RECEIPT_KEY], production)).toBe(
      'RECEIPT_SIGNING_KEYS must not list the development key published in the source when NODE_ENV is production',
    );
    expect(describeProductionSecretProblem('RECEIPT_SIGNING_KEYS', [receiptKey], production)).toBeNull();
    for (const context of elsewhere) expect(describeProductionSecretProblem('RECEIPT_SIGNING_KEYS', [], context)).toBeNull();
  });

  it.each([
    ['all zeros', Buffer.alloc(32, 0x00)],
    ['all ones', Buffer.alloc(32, 0xff)],
    ['one byte repeated', Buffer.alloc(32, 0x5a)],
  ])('refuses a receipt seed of %s in production only', (_, seed) => {
    expect(describeProductionSecretProblem('RECEIPT_SIGNING_KEYS', [receiptKey, seed.toString('base64url')], production)).toBe(
      'RECEIPT_SIGNING_KEYS must not be one byte repeated (such as all zeros) when NODE_ENV is production',
    );
    for (const context of elsewhere) expect(describeProductionSecretProblem('RECEIPT_SIGNING_KEYS', [seed.toString('base64url')], context)).toBeNull();
  });

  it('refuses an unset WEBHOOK_SECRET_KEY in production only', () => {
    expect(describeProductionSecretProblem('WEBHOOK_SECRET_KEY', '', production)).toBe(
      'WEBHOOK_SECRET_KEY must be set (64 hex digits) when NODE_ENV is production',
    );
    expect(describeProductionSecretProblem('WEBHOOK_SECRET_KEY', key, production)).toBeNull();
    for (const context of elsewhere) expect(describeProductionSecretProblem('WEBHOOK_SECRET_KEY', '', context)).toBeNull();
  });

  it('accepts WEBHOOK_SECRET_KEYS in place of WEBHOOK_SECRET_KEY in production', () => {
    expect(
      describeProductionSecretProblem('WEBHOOK_SECRET_KEY', '', { NODE_ENV: 'production', WEBHOOK_SECRET_KEYS: [key], HOLDER_DATA_KEYS: [] }),
    ).toBeNull();
    expect(describeProductionSecretProblem('WEBHOOK_SECRET_KEYS', [key], production)).toBeNull();
  });

  describe.each(['WEBHOOK_SECRET_KEY', 'HOLDER_DATA_KEY'] as const)('%s in production', (setting) => {
    it.each([
      ['the development webhook key', DEVELOPMENT_WEBHOOK_KEY_HEX],
      ['the development holder data key', DEVELOPMENT_HOLDER_DATA_KEY_HEX],
      ['the development webhook key in capitals', DEVELOPMENT_WEBHOOK_KEY_HEX.toUpperCase()],
    ])('refuses %s', (_case, value) => {
      expect(describeProductionSecretProblem(setting, value, production)).toBe(
        `${setting} must not be a development key published in the source when NODE_ENV is production`,
      );
    });

    it.each(['00'.repeat(32), 'ff'.repeat(32), 'aB'.repeat(32)])('refuses %s, one byte repeated', (value) => {
      expect(describeProductionSecretProblem(setting, value, production)).toBe(
        `${setting} must not be one byte repeated (such as all zeros) when NODE_ENV is production`,
      );
    });

    it('accepts two alternating bytes (only one repeated byte is refused), and any key outside production', () => {
      expect(describeProductionSecretProblem(setting, '0001'.repeat(16), production)).toBeNull();
      for (const context of elsewhere) expect(describeProductionSecretProblem(setting, '00'.repeat(32), context)).toBeNull();
    });
  });

  it('accepts HOLDER_DATA_KEYS in place of HOLDER_DATA_KEY in production, and refuses a weak key of the ring', () => {
    expect(
      describeProductionSecretProblem('HOLDER_DATA_KEY', '', { NODE_ENV: 'production', WEBHOOK_SECRET_KEYS: [], HOLDER_DATA_KEYS: [key] }),
    ).toBeNull();
    expect(describeProductionSecretProblem('HOLDER_DATA_KEYS', [key, DEVELOPMENT_HOLDER_DATA_KEY_HEX], production)).toBe(
      'HOLDER_DATA_KEYS must not be a development key published in the source when NODE_ENV is production',
    );
  });

  it('refuses any weak key of a WEBHOOK_SECRET_KEYS rotation list, naming the list', () => {
    expect(describeProductionSecretProblem('WEBHOOK_SECRET_KEYS', [key, '00'.repeat(32)], production)).toBe(
      'WEBHOOK_SECRET_KEYS must not be one byte repeated (such as all zeros) when NODE_ENV is production',
    );
    expect(describeProductionSecretProblem('WEBHOOK_SECRET_KEYS', [DEVELOPMENT_WEBHOOK_KEY_HEX, key], production)).toBe(
      'WEBHOOK_SECRET_KEYS must not be a development key published in the source when NODE_ENV is production',
    );
    expect(describeProductionSecretProblem('WEBHOOK_SECRET_KEYS', [], production)).toBeNull();
  });

  it('refuses an ADMIN_TOKEN of 1 to 31 characters in production, and accepts 32 or none', () => {
    const problem = 'ADMIN_TOKEN must be at least 32 characters when NODE_ENV is production (or unset, which keeps the dashboard off)';
    expect(describeProductionSecretProblem('ADMIN_TOKEN', 'x', production)).toBe(problem);
    expect(describeProductionSecretProblem('ADMIN_TOKEN', 'abcdefgh'.repeat(4).slice(0, 31), production)).toBe(problem);
    expect(describeProductionSecretProblem('ADMIN_TOKEN', 'abcdefgh'.repeat(4), production)).toBeNull();
    expect(describeProductionSecretProblem('ADMIN_TOKEN', '', production)).toBeNull();
  });

  it('refuses an ADMIN_TOKEN of fewer than 8 different characters in production, however long', () => {
    const problem = 'ADMIN_TOKEN must have at least 8 different characters when NODE_ENV is production (openssl rand -hex 24 makes one)';
    expect(describeProductionSecretProblem('ADMIN_TOKEN', 't'.repeat(32), production)).toBe(problem);
    expect(describeProductionSecretProblem('ADMIN_TOKEN', 'abcdefg'.repeat(10), production)).toBe(problem);
    expect(describeProductionSecretProblem('ADMIN_TOKEN', 'abcdefgh'.repeat(4), production)).toBeNull();
  });

  it('leaves a short or repetitive ADMIN_TOKEN alone outside production', () => {
    for (const context of elsewhere) {
      expect(describeProductionSecretProblem('ADMIN_TOKEN', 'x', context)).toBeNull();
      expect(describeProductionSecretProblem('ADMIN_TOKEN', 't'.repeat(32), context)).toBeNull();
    }
  });

  it('refuses WEBHOOK_ALLOW_PRIVATE_URLS=true in production only', () => {
    expect(describeProductionSecretProblem('WEBHOOK_ALLOW_PRIVATE_URLS', true, production)).toBe(
      'WEBHOOK_ALLOW_PRIVATE_URLS must be false when NODE_ENV is production: it lets webhooks reach internal addresses',
    );
    expect(describeProductionSecretProblem('WEBHOOK_ALLOW_PRIVATE_URLS', false, production)).toBeNull();
    for (const context of elsewhere) expect(describeProductionSecretProblem('WEBHOOK_ALLOW_PRIVATE_URLS', true, context)).toBeNull();
  });
});

describe('describeApiProductionProblems', () => {
  const OPERATOR_LINE =
    'OPERATOR_PORT: OPERATOR_PORT must be set when NODE_ENV is production: without it the partner port serves /metrics, /health/* and the queue dashboard';
  const PUBLIC_LINE =
    "PUBLIC_BASE_URL: PUBLIC_BASE_URL must be set when NODE_ENV is production: it is the issuer (iss) of every receipt, never a request's Host";
  const URL = 'https://api.example.com';

  it('refuses an API without OPERATOR_PORT or without PUBLIC_BASE_URL in production only, one line each', () => {
    expect(describeApiProductionProblems({ NODE_ENV: 'production', OPERATOR_PORT: null, PUBLIC_BASE_URL: URL })).toEqual([OPERATOR_LINE]);
    expect(describeApiProductionProblems({ NODE_ENV: 'production', OPERATOR_PORT: 9100, PUBLIC_BASE_URL: '' })).toEqual([PUBLIC_LINE]);
    expect(describeApiProductionProblems({ NODE_ENV: 'production', OPERATOR_PORT: null, PUBLIC_BASE_URL: '' })).toEqual([OPERATOR_LINE, PUBLIC_LINE]);
    expect(describeApiProductionProblems({ NODE_ENV: 'production', OPERATOR_PORT: 9100, PUBLIC_BASE_URL: URL })).toEqual([]);
    expect(describeApiProductionProblems({ NODE_ENV: 'production', OPERATOR_PORT: 0, PUBLIC_BASE_URL: URL })).toEqual([]);
    expect(describeApiProductionProblems({ NODE_ENV: '', OPERATOR_PORT: null, PUBLIC_BASE_URL: '' })).toEqual([]);
  });

  it('refuses an http OPERATOR_OIDC_ISSUER in production only', () => {
    const settings = { OPERATOR_PORT: 9100, PUBLIC_BASE_URL: 'https://lvs.example.com', OPERATOR_OIDC_ISSUER: 'http://localhost:4000' };
    expect(describeApiProductionProblems({ ...settings, NODE_ENV: 'production' })).toEqual([
      'OPERATOR_OIDC_ISSUER: OPERATOR_OIDC_ISSUER must be an https address when NODE_ENV is production: its answers vouch for operators',
    ]);
    expect(describeApiProductionProblems({ ...settings, NODE_ENV: '' })).toEqual([]);
    expect(describeApiProductionProblems({ ...settings, NODE_ENV: 'production', OPERATOR_OIDC_ISSUER: 'https://login.example.com' })).toEqual([]);
  });

  it('refuses an http PUBLIC_BASE_URL in production only, a loopback one too', () => {
    const line =
      "PUBLIC_BASE_URL: PUBLIC_BASE_URL must be an https address when NODE_ENV is production: partners send API keys to it, and the console's cookies are Secure";
    for (const address of ['http://lvs.example.com', 'http://localhost:3000', 'http://127.0.0.1:3000']) {
      expect(describeApiProductionProblems({ NODE_ENV: 'production', OPERATOR_PORT: 9100, PUBLIC_BASE_URL: address })).toEqual([line]);
      expect(describeApiProductionProblems({ NODE_ENV: 'development', OPERATOR_PORT: null, PUBLIC_BASE_URL: address })).toEqual([]);
    }
    expect(describeApiProductionProblems({ NODE_ENV: 'production', OPERATOR_PORT: null, PUBLIC_BASE_URL: 'http://lvs.example.com' })).toEqual([
      OPERATOR_LINE,
      line,
    ]);
    expect(describeApiProductionProblems({ NODE_ENV: 'production', OPERATOR_PORT: 9100, PUBLIC_BASE_URL: 'HTTPS://lvs.example.com/lvs' })).toEqual([]);
  });
});
