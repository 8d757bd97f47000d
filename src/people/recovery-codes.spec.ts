import { hashRecoveryCode, newRecoveryCodes, RECOVERY_CODE_COUNT, spendRecoveryCode } from './recovery-codes';

describe('recovery codes', () => {
  it('makes ten distinct codes of four groups, and stores only their hashes', () => {
    const { codes, hashes } = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    expect(hashes).toEqual(codes.map(hashRecoveryCode));
    expect(hashes.join()).not.toContain(codes[0]);
  });

  it('spends a code once: the stored list loses it, and the same code is then refused', () => {
    const { codes, hashes } = newRecoveryCodes();
    const left = spendRecoveryCode(hashes, codes[3]);
    expect(left).toEqual([...hashes.slice(0, 3), ...hashes.slice(4)]);
    expect(spendRecoveryCode(left!, codes[3])).toBeNull();
  });

  it('reads a code typed in lower case, without dashes, with O for 0 and l for 1', () => {
    const hashes = [hashRecoveryCode('0A1B-2C3D-4E5F-6G7H')];
    expect(spendRecoveryCode(hashes, 'oa1b 2c3d-4e5f6g7h')).toEqual([]);
    expect(spendRecoveryCode(hashes, '0alb2c3d4e5f6g7h')).toEqual([]);
  });

  it('refuses a wrong code', () => {
    const { hashes } = newRecoveryCodes();
    expect(spendRecoveryCode(hashes, 'AAAA-AAAA-AAAA-AAAA')).toBeNull();
    expect(spendRecoveryCode(hashes, '')).toBeNull();
  });
});
