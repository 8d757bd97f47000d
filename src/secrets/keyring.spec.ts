import { webhookKeyring } from './keyring';
import { DEVELOPMENT_KEY_HEX, keyIdOf } from './secret-box';

const [K1, K2, K3] = ['11', '22', '33'].map((byte) => byte.repeat(32));

describe('webhookKeyring', () => {
  it('takes WEBHOOK_SECRET_KEYS in order: the first seals, all open', () => {
    expect(webhookKeyring({ WEBHOOK_SECRET_KEYS: [K2, K1], WEBHOOK_SECRET_KEY: '' })).toEqual({
      keys: [
        { id: keyIdOf(K2), hex: K2 },
        { id: keyIdOf(K1), hex: K1 },
      ],
      development: false,
    });
  });

  it('prefers WEBHOOK_SECRET_KEYS over WEBHOOK_SECRET_KEY when both are set', () => {
    expect(webhookKeyring({ WEBHOOK_SECRET_KEYS: [K3], WEBHOOK_SECRET_KEY: K1 }).keys.map((key) => key.hex)).toEqual([K3]);
  });

  it('reads WEBHOOK_SECRET_KEY alone as a one-key list', () => {
    expect(webhookKeyring({ WEBHOOK_SECRET_KEYS: [], WEBHOOK_SECRET_KEY: K1 })).toEqual({ keys: [{ id: keyIdOf(K1), hex: K1 }], development: false });
  });

  it('falls back to the development key, saying so, when neither is set', () => {
    expect(webhookKeyring({ WEBHOOK_SECRET_KEYS: [], WEBHOOK_SECRET_KEY: '' })).toEqual({
      keys: [{ id: keyIdOf(DEVELOPMENT_KEY_HEX), hex: DEVELOPMENT_KEY_HEX }],
      development: true,
    });
  });

  it('counts a key listed twice once, in its first place, whatever its case', () => {
    expect(webhookKeyring({ WEBHOOK_SECRET_KEYS: [K2, K1, K2.toUpperCase()], WEBHOOK_SECRET_KEY: '' }).keys.map((key) => key.hex)).toEqual([K2, K1]);
  });
});
