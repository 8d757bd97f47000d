import { databaseName, demoStores } from './demo-isolation';

describe('demoStores', () => {
  it("puts the demo in licence_verification_demo and under lvs-demo by default, keeping the URL's other parts", () => {
    expect(demoStores('postgres://postgres@127.0.0.1:5432/licence_verification', 'lvs')).toEqual({
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/licence_verification_demo',
      redisPrefix: 'lvs-demo',
    });
    expect(demoStores('postgres://app:secret@db.internal:6543/verify?sslmode=require', 'prod_1').databaseUrl).toBe(
      'postgres://app:secret@db.internal:6543/verify_demo?sslmode=require',
    );
  });

  it('keeps the prefix within the 64 characters REDIS_PREFIX allows', () => {
    const { redisPrefix } = demoStores('postgres://postgres@127.0.0.1/lvs', 'p'.repeat(64));
    expect(redisPrefix).toBe(`${'p'.repeat(59)}-demo`);
    expect(redisPrefix).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });
});

describe('databaseName', () => {
  it('is the path of the URL', () => {
    expect(databaseName('postgres://postgres@127.0.0.1:5432/licence_verification_demo')).toBe('licence_verification_demo');
  });
});
