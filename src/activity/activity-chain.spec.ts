import { createHash } from 'node:crypto';
import { ActivityContent, canonicalJson, ChainedEvent, eventHash, firstBreak, GENESIS_HASH } from './activity-chain';

function content(seq: number, changes: ActivityContent['changes'] = {}): ActivityContent {
  return {
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    userId: '11111111-1111-4111-8111-111111111111',
    seq,
    occurredAt: `2026-11-0${seq}T10:00:00.000Z`,
    actor: { type: 'key', id: '22222222-2222-4222-8222-222222222222' },
    action: 'key.created',
    target: { type: 'key', id: '33333333-3333-4333-8333-333333333333' },
    clientAddress: '203.0.113.9',
    userAgent: 'curl/8',
    changes,
  };
}

/** A chain of `length` events made as the log makes them. */
function chain(length: number): ChainedEvent[] {
  const events: ChainedEvent[] = [];
  for (let seq = 1; seq <= length; seq++) {
    const previousHash = events.at(-1)?.hash ?? GENESIS_HASH;
    const event = content(seq, { role: { old: null, new: 'viewer' } });
    events.push({ ...event, previousHash, hash: eventHash(previousHash, event) });
  }
  return events;
}
const headOf = (events: ChainedEvent[]) => ({ seq: events.at(-1)!.seq, hash: events.at(-1)!.hash });

describe('canonicalJson', () => {
  it('sorts keys at every depth and leaves out undefined fields, so key order never changes the text', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: null, y: 'x' }], c: undefined } })).toBe('{"a":{"d":[2,{"y":"x","z":null}]},"b":1}');
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
  });
});

describe('eventHash', () => {
  it('is SHA-256 over the previous hash and the canonical JSON', () => {
    const event = content(1);
    expect(eventHash(GENESIS_HASH, event)).toBe(
      createHash('sha256')
        .update(GENESIS_HASH + canonicalJson(event))
        .digest('hex'),
    );
  });

  it('changes with one character of the content or of the previous hash', () => {
    const event = content(1);
    const hash = eventHash(GENESIS_HASH, event);
    expect(eventHash(GENESIS_HASH, { ...event, userAgent: 'curl/9' })).not.toBe(hash);
    expect(eventHash(`1${GENESIS_HASH.slice(1)}`, event)).not.toBe(hash);
  });
});

describe('firstBreak', () => {
  it('finds none in a chain made as the log makes it, or in an empty one', () => {
    const events = chain(4);
    expect(firstBreak(events, headOf(events))).toBeNull();
    expect(firstBreak([], { seq: 0, hash: GENESIS_HASH })).toBeNull();
  });

  it('trusts the oldest event kept after retention pruned those before it', () => {
    const events = chain(5).slice(2);
    expect(firstBreak(events, headOf(events))).toBeNull();
  });

  it('names the first event whose content was changed, even when a later one was changed too', () => {
    const events = chain(4);
    const head = headOf(events);
    events[1] = { ...events[1], changes: { role: { old: null, new: 'admin' } } };
    events[3] = { ...events[3], clientAddress: '203.0.113.10' };
    expect(firstBreak(events, head)).toEqual({ id: events[1].id, seq: 2, reason: 'content' });
  });

  it('names an event rehashed after a change, by its link to the next one', () => {
    const events = chain(3);
    const head = headOf(events);
    const changed = { ...events[1], userAgent: 'forged' };
    const { previousHash, hash: _old, ...forged } = changed;
    events[1] = { ...changed, hash: eventHash(previousHash, forged) };
    expect(firstBreak(events, head)).toEqual({ id: events[2].id, seq: 3, reason: 'link' });
  });

  it('names the event after one that was deleted, and a first event that does not start from the genesis hash', () => {
    const events = chain(4);
    expect(firstBreak([events[0], events[2], events[3]], headOf(events))).toEqual({ id: events[2].id, seq: 3, reason: 'gap' });
    const first = { ...events[0], previousHash: 'f'.repeat(64) };
    expect(firstBreak([first], headOf([first]))).toEqual({ id: first.id, seq: 1, reason: 'link' });
  });

  it('tells the newest events gone from what the head row says', () => {
    const events = chain(3);
    expect(firstBreak(events.slice(0, 2), headOf(events))).toEqual({ id: null, seq: 3, reason: 'head' });
  });
});
