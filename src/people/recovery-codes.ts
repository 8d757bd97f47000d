import { createHash, randomInt } from 'node:crypto';

export const RECOVERY_CODE_COUNT = 10;

// Crockford's base32 without the letters people misread (I, L, O, U): 16 characters carry 80 random bits, too many
// to guess against a fast hash, so a plain SHA-256 is enough to store them.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const GROUPS = 4;
const GROUP_LENGTH = 4;

/** What a person types, as it is compared: upper case, without spaces and dashes, O and I and L read as digits. */
function normalise(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}

export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update('recovery code:').update(normalise(code)).digest('base64url');
}

/** Ten new codes to show the person once, and their hashes to store (in the same order). */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from({ length: GROUPS }, () => Array.from({ length: GROUP_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('')).join('-'),
  );
  return { codes, hashes: codes.map(hashRecoveryCode) };
}

/** The stored hashes once `code` is used: without its own hash; null when it matches none (wrong, or used before). */
export function spendRecoveryCode(storedHashes: readonly string[], code: string): string[] | null {
  const hashed = hashRecoveryCode(code);
  const index = storedHashes.indexOf(hashed);
  return index === -1 ? null : storedHashes.filter((_, position) => position !== index);
}
