import { endpointChanges } from './endpoint-changes';

const BEFORE = { url: 'https://partner.example/hooks?token=a', events: ['ping', 'watch.paused'] };

describe('endpointChanges', () => {
  it('names each altered field with its old and new value', () => {
    expect(endpointChanges(BEFORE, { ...BEFORE, url: 'https://partner.example/v2?token=b' })).toEqual({
      url: { old: 'https://partner.example/hooks?token=a', new: 'https://partner.example/v2?token=b' },
    });
    expect(endpointChanges(BEFORE, { url: 'https://other.example/', events: ['ping'] })).toEqual({
      url: { old: 'https://partner.example/hooks?token=a', new: 'https://other.example/' },
      events: { old: ['ping', 'watch.paused'], new: ['ping'] },
    });
  });

  it('is empty when nothing was altered, and counts a new order of the event types as a change', () => {
    expect(endpointChanges(BEFORE, { ...BEFORE, events: [...BEFORE.events] })).toEqual({});
    expect(endpointChanges(BEFORE, { ...BEFORE, events: ['watch.paused', 'ping'] })).toEqual({
      events: { old: ['ping', 'watch.paused'], new: ['watch.paused', 'ping'] },
    });
  });
});
