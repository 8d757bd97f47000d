import type { KeyMode } from '../auth/key-mode';

/** Why a session's Test mode switch is refused. */
export type SideSwitchRefusal = 'key-session' | 'test-mode-off';

/**
 * Whether a console session may move to side `to` of its account; null when it may. A member's session moves
 * between the live and the test side; a session signed in with a key stays on its key's side, as the key does in
 * the API. The test side is out of reach while test mode is off; back to live never is.
 */
export function sideSwitchRefusal(holder: 'key' | 'member', to: KeyMode, testModeEnabled: boolean): SideSwitchRefusal | null {
  if (holder === 'key') return 'key-session';
  return to === 'test' && !testModeEnabled ? 'test-mode-off' : null;
}

/** The side the console's switch offers to a session now on `side`; null where there is no switch to show. */
export function offeredSide(holder: 'key' | 'member', side: KeyMode, testModeEnabled: boolean): KeyMode | null {
  const other: KeyMode = side === 'live' ? 'test' : 'live';
  return sideSwitchRefusal(holder, other, testModeEnabled) === null ? other : null;
}
