import { createHmac } from 'node:crypto';
import { newSigningSecret, signPayload } from './sign-payload';

// The Standard Webhooks specification's own example.
const SPEC_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const SPEC_ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const SPEC_TIMESTAMP = 1614265330;
const SPEC_BODY = '{"test": 2432232314}';

describe('signPayload', () => {
  it("matches the Standard Webhooks specification's example", () => {
    expect(signPayload([SPEC_SECRET], SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY)).toEqual({
      'webhook-id': SPEC_ID,
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('signs with every secret during a rotation, space separated', () => {
    const other = newSigningSecret();
    const signature = signPayload([SPEC_SECRET, other], SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY)['webhook-signature'];
    const expectedOther = createHmac('sha256', Buffer.from(other.slice(6), 'base64'))
      .update(`${SPEC_ID}.${SPEC_TIMESTAMP}.${SPEC_BODY}`)
      .digest('base64');
    expect(signature).toBe(`v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE= v1,${expectedOther}`);
  });
});

describe('newSigningSecret', () => {
  it('is whsec_ and 32 random bytes in base64', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(secret);
  });
});
