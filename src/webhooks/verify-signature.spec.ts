import { Webhook } from 'standardwebhooks';
import { newSigningSecret, signPayload } from './sign-payload';
import { isSignedBy } from './verify-signature';

describe('isSignedBy', () => {
  const secret = newSigningSecret();
  const body = '{"type":"ping","timestamp":"2026-11-22T10:00:00.000Z","data":{}}';
  const now = 1_795_000_000;
  // Signed by the standardwebhooks library, an independent implementation.
  const signedByLibrary = (key: string, at: number) => {
    const signature = new Webhook(key).sign('msg_1', new Date(at * 1000), body);
    return { 'webhook-id': 'msg_1', 'webhook-timestamp': String(at), 'webhook-signature': signature };
  };

  it('accepts what standardwebhooks signs, and our own signatures', () => {
    expect(isSignedBy(secret, signedByLibrary(secret, now), body, now)).toBe(true);
    expect(isSignedBy(secret, signPayload([secret], 'msg_1', now, body), body, now + 60)).toBe(true);
  });

  it('accepts any of several signatures, as sent during a secret rotation', () => {
    expect(isSignedBy(secret, signPayload([newSigningSecret(), secret], 'msg_1', now, body), body, now)).toBe(true);
  });

  it('refuses another secret, a changed body or id, and a timestamp more than 5 minutes away', () => {
    expect(isSignedBy(newSigningSecret(), signedByLibrary(secret, now), body, now)).toBe(false);
    expect(isSignedBy(secret, signedByLibrary(secret, now), body.replace('ping', 'pong'), now)).toBe(false);
    expect(isSignedBy(secret, { ...signedByLibrary(secret, now), 'webhook-id': 'msg_2' }, body, now)).toBe(false);
    expect(isSignedBy(secret, signedByLibrary(secret, now), body, now + 301)).toBe(false);
    expect(isSignedBy(secret, {}, body, now)).toBe(false);
  });
});
