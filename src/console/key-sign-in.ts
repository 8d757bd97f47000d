/**
 * Whether an API key may sign in to the console: CONSOLE_KEY_SIGN_IN when set, else on outside production and off
 * in production (where the setting cannot be true: production-secrets.ts).
 */
export function keySignInAllowed(setting: boolean | undefined, nodeEnv: string): boolean {
  return setting ?? nodeEnv !== 'production';
}
