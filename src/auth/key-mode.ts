/** Live keys reach the register and spend the plan; test keys reach only the built-in sandbox (docs/api.md, Test mode). */
export type KeyMode = 'live' | 'test';
