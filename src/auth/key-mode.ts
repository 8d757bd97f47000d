/** Live keys reach the register and spend the plan; test keys reach only the built-in sandbox (docs/api.md, Test mode). */
export type KeyMode = 'live' | 'test';

export const KEY_MODES: readonly KeyMode[] = ['live', 'test'];

/**
 * The mode of a key that a key of `callerMode` asks for through POST /v1/keys or the console: the caller's own mode
 * when it names none. A live key may issue keys of either side; a test key only test keys (null: refused), so that a
 * test integration can never mint a key that spends the live plan.
 */
export function issuedKeyMode(callerMode: KeyMode, requested: KeyMode | undefined): KeyMode | null {
  const mode = requested ?? callerMode;
  return callerMode === 'test' && mode === 'live' ? null : mode;
}
