import { RequestValidationPipe } from '../../validation/request-validation.pipe';
import { EVENT_TYPES } from '../../events/event-types';
import { CreateWebhookDto, UpdateWebhookDto } from './webhook.dto';

const URL = 'https://partner.example/hooks';
const pipe = new RequestValidationPipe();
const read = (body: unknown) => pipe.transform(body, { type: 'body', metatype: CreateWebhookDto });
const SHAPE = 'Request body must be {"url","events"} with an optional list of known event types';

describe('CreateWebhookDto', () => {
  it('takes every event type when none are named, and each named one once', async () => {
    await expect(read({ url: URL })).resolves.toEqual(Object.assign(new CreateWebhookDto(), { url: URL, events: [...EVENT_TYPES] }));
    await expect(read({ url: URL, events: ['ping', 'ping', 'watch.paused'] })).resolves.toMatchObject({ events: ['ping', 'watch.paused'] });
    // Repeats count once, so a list longer than maxItems of repeats is still taken.
    await expect(read({ url: URL, events: Array(EVENT_TYPES.length + 1).fill('ping') })).resolves.toMatchObject({ events: ['ping'] });
  });

  it.each([
    ['no url', { events: ['ping'] }],
    ['a url that is not text', { url: 42 }],
    ['an unknown field', { url: URL, secret: 'x' }],
    ['events that are not a list', { url: URL, events: 'ping' }],
    ['null events', { url: URL, events: null }],
    ['no events', { url: URL, events: [] }],
    ['an unknown event type', { url: URL, events: ['ping', 'licence.eaten'] }],
    ['more events than there are types', { url: URL, events: [...EVENT_TYPES, 'licence.eaten'] }],
  ])('refuses %s', async (_what, body) => {
    await expect(read(body)).rejects.toMatchObject({ code: 'VALIDATION_ERROR', publicMessage: SHAPE });
  });

  it('refuses a url over 2,048 characters as a url', async () => {
    await expect(read({ url: `${URL}/${'x'.repeat(2048)}` })).rejects.toMatchObject({
      publicMessage: 'url must be an https URL whose host is not a private, loopback, link-local or metadata address',
    });
  });
});

describe('UpdateWebhookDto', () => {
  const change = (body: unknown) => pipe.transform(body, { type: 'body', metatype: UpdateWebhookDto });
  const CHANGE_SHAPE = 'Request body must have url, events or both, with events a list of known event types';

  it('takes the url, the event types or both, leaving the absent one out, each event type once', async () => {
    await expect(change({ url: URL })).resolves.toEqual(Object.assign(new UpdateWebhookDto(), { url: URL }));
    await expect(change({ events: ['ping', 'ping'] })).resolves.toEqual(Object.assign(new UpdateWebhookDto(), { events: ['ping'] }));
    await expect(change({ url: URL, events: ['watch.paused'] })).resolves.toEqual(
      Object.assign(new UpdateWebhookDto(), { url: URL, events: ['watch.paused'] }),
    );
  });

  it.each([
    ['an empty body', {}],
    ['a null url', { url: null }],
    ['a url that is not text', { url: 42 }],
    ['a null url beside events', { url: null, events: ['ping'] }],
    ['null events', { events: null }],
    ['no events', { url: URL, events: [] }],
    ['an unknown event type', { events: ['licence.eaten'] }],
    ['an unknown field', { url: URL, secret: 'whsec_x' }],
    ['only an unknown field', { enabled: true }],
  ])('refuses %s', async (_what, body) => {
    await expect(change(body)).rejects.toMatchObject({ code: 'VALIDATION_ERROR', publicMessage: CHANGE_SHAPE });
  });

  it('refuses a url over 2,048 characters as a url', async () => {
    await expect(change({ url: `${URL}/${'x'.repeat(2048)}` })).rejects.toMatchObject({
      publicMessage: 'url must be an https URL whose host is not a private, loopback, link-local or metadata address',
    });
  });
});
