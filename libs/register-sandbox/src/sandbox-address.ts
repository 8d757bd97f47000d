/** The standalone sandbox's default port; 0 picks a free one. */
const DEFAULT_PORT = 4010;
const DEFAULT_HOST = '127.0.0.1';

/** An integer setting of the standalone sandbox, from 0 to max; the fallback when unset or empty. */
export function integerFromEnv(env: Record<string, string | undefined>, name: string, fallback: number, max: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > max) throw new Error(`${name} "${value}" is not an integer from 0 to ${max}`);
  return number;
}

/**
 * Where the standalone sandbox listens: SANDBOX_HOST and SANDBOX_PORT. In a file of its own, reachable as
 * `@lvs/register-sandbox/sandbox-address`, so that the launcher can check the port before starting it.
 */
export function sandboxAddress(env: Record<string, string | undefined>): { host: string; port: number } {
  return { host: env.SANDBOX_HOST || DEFAULT_HOST, port: integerFromEnv(env, 'SANDBOX_PORT', DEFAULT_PORT, 65535) };
}
