import { offeredSide, sideSwitchRefusal } from './console-side';

describe('sideSwitchRefusal', () => {
  it("lets a member's session move to either side while test mode is enabled", () => {
    expect([sideSwitchRefusal('member', 'test', true), sideSwitchRefusal('member', 'live', true)]).toEqual([null, null]);
  });

  it('keeps a member off the test side while test mode is off, never off the live side', () => {
    expect([sideSwitchRefusal('member', 'test', false), sideSwitchRefusal('member', 'live', false)]).toEqual(['test-mode-off', null]);
  });

  it("keeps a key's session on its key's side, whichever it asks for", () => {
    expect([sideSwitchRefusal('key', 'test', true), sideSwitchRefusal('key', 'live', true), sideSwitchRefusal('key', 'live', false)]).toEqual([
      'key-session',
      'key-session',
      'key-session',
    ]);
  });
});

describe('offeredSide', () => {
  it('offers a member the other side, and the test side only while test mode is enabled', () => {
    expect([offeredSide('member', 'live', true), offeredSide('member', 'test', true), offeredSide('member', 'live', false)]).toEqual([
      'test',
      'live',
      null,
    ]);
  });

  it("offers a key's session nothing", () => {
    expect([offeredSide('key', 'live', true), offeredSide('key', 'test', true)]).toEqual([null, null]);
  });
});
