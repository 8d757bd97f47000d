import { scriptCommandName } from './redis-script';

describe('scriptCommandName', () => {
  it("prefixes the script's name with lvs", () => {
    expect(scriptCommandName('takeLivePlace')).toBe('lvsTakeLivePlace');
  });
});
