import { EVENT_TYPES } from '../events/event-types';
import { newSigningSecret, signPayload } from './sign-payload';
import { eventSchemaName, WEBHOOK_DOCS } from './webhook-docs';

describe('the webhooks section of the OpenAPI document', () => {
  it('has one webhook per event type, each with a body schema of its own name', () => {
    expect(Object.keys(WEBHOOK_DOCS.webhooks)).toEqual([...EVENT_TYPES]);
    expect(EVENT_TYPES.map(eventSchemaName)).toEqual([
      'LicenceStatusChangedEvent',
      'LicenceDetailsChangedEvent',
      'LicenceNotFoundEvent',
      'LicenceExpiringEvent',
      'LicenceReplacedEvent',
      'WatchPausedEvent',
      'WatchResumedEvent',
      'PingEvent',
    ]);
    for (const type of EVENT_TYPES) {
      const operation = (WEBHOOK_DOCS.webhooks[type] as { post: Record<string, any> }).post;
      expect(operation.requestBody.content['application/json'].schema).toEqual({ $ref: `#/components/schemas/${eventSchemaName(type)}` });
      expect(WEBHOOK_DOCS.schemas[eventSchemaName(type)]).toMatchObject({ required: ['type', 'timestamp', 'data', 'mode'], additionalProperties: false });
    }
  });

  it('documents the headers signPayload sends, with a signature pattern its one and two signatures match', () => {
    const parameters = (WEBHOOK_DOCS.webhooks.ping as { post: { parameters: Array<{ name: string; schema: { pattern?: string } }> } }).post.parameters;
    const sent = (secrets: number) => signPayload(Array.from({ length: secrets }, newSigningSecret), 'id', 1_795_000_000, '{}');
    expect(parameters.map((parameter) => parameter.name)).toEqual(Object.keys(sent(1)));
    const signature = new RegExp(parameters.find((parameter) => parameter.name === 'webhook-signature')!.schema.pattern!);
    expect([sent(1), sent(2)].map((headers) => signature.test(headers['webhook-signature']))).toEqual([true, true]);
    expect(signature.test(`${sent(2)['webhook-signature']} ${sent(1)['webhook-signature']}`)).toBe(false);
  });
});
