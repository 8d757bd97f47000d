import { Algorithm, hash, verify } from '@node-rs/argon2';

/**
 * argon2id with OWASP's second recommended setting (19 MiB, 2 passes, 1 lane): about 10 ms a hash on one core,
 * slow for a guesser with the stored hashes, quick enough for a person signing in.
 */
const OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** The PHC string of a password (salt and parameters inside): what is stored, never the password. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

// A hash of nothing anyone can type, checked when no account matches, so that an unknown address takes as long to
// refuse as a wrong password and the timing does not say which addresses exist.
const NO_ACCOUNT_HASH = hashPassword('\u0000 no account \u0000');

/** Whether `password` is the one `stored` was made from; with `stored` null (no such account), false in the same time. */
export async function passwordMatches(stored: string | null, password: string): Promise<boolean> {
  const matches = await verify(stored ?? (await NO_ACCOUNT_HASH), password);
  return stored !== null && matches;
}
