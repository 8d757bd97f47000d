import { eventView, webhookBody } from './event-view';

const event = {
  id: '7f1c2b9e-0000-4000-8000-000000000001',
  type: 'licence.expiring' as const,
  createdAt: new Date('2026-11-27T07:00:00.000Z'),
  data: { licenceNumber: '4000000000000001', daysLeft: 30 },
};

describe('webhookBody', () => {
  it('is the feed view without its id, the owner mode included, as the exact text that is signed', () => {
    expect(webhookBody(event, 'test')).toBe(
      '{"type":"licence.expiring","timestamp":"2026-11-27T07:00:00.000Z","data":{"licenceNumber":"4000000000000001","daysLeft":30},"mode":"test"}',
    );
    const { id, ...feedWithoutId } = eventView(event, 'live');
    expect(id).toBe(event.id);
    expect(JSON.parse(webhookBody(event, 'live'))).toEqual(feedWithoutId);
  });
});
