import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

export const MIN_PASSWORD_LENGTH = 12;
/** Long enough for any passphrase, short enough that hashing and scoring one cannot be used to tie up a process. */
export const MAX_PASSWORD_LENGTH = 256;
/** zxcvbn's scale is 0-4; 3 is "safely unguessable: moderate protection from offline slow-hash scenario". */
export const MIN_PASSWORD_SCORE = 3;

export type PasswordRefusal = 'TOO_SHORT' | 'TOO_LONG' | 'TOO_WEAK';

/** The words a person reads for each refusal. */
export const PASSWORD_REFUSAL_MESSAGES: Readonly<Record<PasswordRefusal, string>> = {
  TOO_SHORT: `The password must have at least ${MIN_PASSWORD_LENGTH} characters.`,
  TOO_LONG: `The password must have at most ${MAX_PASSWORD_LENGTH} characters.`,
  TOO_WEAK: 'The password is too easy to guess: use a longer phrase of unrelated words.',
};

let scorer: ZxcvbnFactory | undefined;

/**
 * Built at the first password chosen, once: the dictionaries hold tens of MiB of the heap and take a tenth of a second
 * to load, which a process that never sees a password (most API processes, most of the time) should not carry.
 */
function passwordScorer(): ZxcvbnFactory {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  scorer ??= (require('./password-scorer') as typeof import('./password-scorer')).createPasswordScorer();
  return scorer;
}

/**
 * Why a password may not be used, or null when it may. Length is counted in characters (code points), so that a
 * passphrase in any script counts as its reader sees it. `context` holds words the person's own details give away
 * (their e-mail address, their name, the service's name): a password built on them scores lower.
 */
export function passwordRefusal(password: string, context: readonly string[] = []): PasswordRefusal | null {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return 'TOO_SHORT';
  if (length > MAX_PASSWORD_LENGTH) return 'TOO_LONG';
  // zxcvbn matches whole inputs: an address is given word by word, so that a password on its name part is seen.
  const words = context.flatMap((text) => [text, ...text.split(/[^\p{L}\p{N}]+/u)]).filter((word) => word.length > 0);
  return passwordScorer().check(password, words).score >= MIN_PASSWORD_SCORE ? null : 'TOO_WEAK';
}
