import type { ParameterObject, PathItemObject, ReferenceObject, SchemaObject } from '@nestjs/swagger';
import { KEY_MODES } from '../auth/key-mode';
import { EVENT_TYPES, EventType, SUCCESSOR_CONFIDENCES } from '../events/event-types';
import type { OpenApiWebhooks } from '../http/openapi-webhooks';
import { DELIVERY_TIMEOUT_MS } from './delivery.queue';
import type { signPayload } from './sign-payload';

const ref = (name: string): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });

/** A licence object as verify answers it (the verification DTOs' schema), or null. */
const NULLABLE_LICENCE: SchemaObject = { oneOf: [ref('LicenceDto'), { type: 'null' }] };

const LICENCE_NUMBER: SchemaObject = { type: 'string', pattern: '^[0-9]{16}$', example: '1011001544208079' };
const REFERENCE: SchemaObject = { type: ['string', 'null'], example: 'guard-0042', description: 'Your own id for the number, as you watched it' };

type Properties = Record<string, SchemaObject | ReferenceObject>;

const licenceChange = (current: string): Properties => ({
  licenceNumber: LICENCE_NUMBER,
  reference: REFERENCE,
  previous: { ...NULLABLE_LICENCE, description: 'The licence as the re-check before found it; null for a number first seen on the register' },
  current: { ...NULLABLE_LICENCE, description: current },
});

const closed = (properties: Properties, description: string): SchemaObject => ({
  type: 'object',
  description,
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

/** The `data` of each kind of event, named as the document's schemas. */
const DATA_SCHEMAS: Record<string, SchemaObject> = {
  LicenceChangeEventData: closed(
    licenceChange('The licence as this re-check found it; null when the number is gone from the register'),
    'What changed on the register',
  ),
  LicenceExpiringEventData: closed(
    {
      ...licenceChange('The licence as this re-check found it'),
      daysLeft: { type: 'integer', minimum: 0, example: 30, description: 'Days until expiryDate' },
    },
    'A watched licence nears its expiry date',
  ),
  LicenceReplacedEventData: closed(
    {
      ...licenceChange('The old licence as this re-check found it; null when it is gone from the register'),
      successorLicenceNumber: { ...LICENCE_NUMBER, example: '1011001544208080', description: "The holder's one other Active licence" },
      confidence: {
        type: 'string',
        enum: [...SUCCESSOR_CONFIDENCES],
        description: 'NAME_AND_DATE_OF_BIRTH: the search had the date of birth you gave; NAME_ONLY: the name alone',
      },
    },
    'A watched licence stopped being Active and its holder has exactly one other Active licence',
  ),
  WatchStateEventData: closed(
    {
      licenceNumber: LICENCE_NUMBER,
      reference: REFERENCE,
      reason: { enum: ['QUOTA_EXCEEDED', null], description: 'Why the number is paused; null when it resumes' },
    },
    'A watched number paused (no room in the quota this month) or resumed',
  ),
  PingEventData: closed({ endpointId: { type: 'string', format: 'uuid', description: 'The endpoint that was tested' } }, 'A test delivery'),
};

/** Each event type: when it is sent, and the schema of its data. */
const EVENTS: Record<EventType, { summary: string; data: keyof typeof DATA_SCHEMAS }> = {
  'licence.status_changed': {
    summary: 'The status (with its reason) of a watched licence changed, for example Active to Revoked, or the number appeared on the register',
    data: 'LicenceChangeEventData',
  },
  'licence.details_changed': { summary: 'The expiry date, sector, role, name or conditions of a watched licence changed', data: 'LicenceChangeEventData' },
  'licence.not_found': { summary: 'A watched number is no longer on the register', data: 'LicenceChangeEventData' },
  'licence.expiring': { summary: 'A watched licence expires in 60, 30, 7 or 1 days (once each)', data: 'LicenceExpiringEventData' },
  'licence.replaced': {
    summary: "A watched licence stopped being Active and its holder's new licence was found; sent instead of that re-check's status event",
    data: 'LicenceReplacedEventData',
  },
  'watch.paused': { summary: 'The quota has no room for a watched number this month: it is not re-checked', data: 'WatchStateEventData' },
  'watch.resumed': { summary: 'The quota has room for a paused number again: it is re-checked', data: 'WatchStateEventData' },
  ping: { summary: 'POST /v1/webhooks/{id}/test', data: 'PingEventData' },
};

/** The Standard Webhooks headers of every delivery, as signPayload names them. */
const HEADERS: Record<keyof ReturnType<typeof signPayload>, Omit<ParameterObject, 'name' | 'in'>> = {
  'webhook-id': {
    description: 'The event id (its id in GET /v1/events); the same on every attempt, so drop a delivery whose id you have seen',
    schema: { type: 'string', format: 'uuid' },
  },
  'webhook-timestamp': {
    description: 'Unix seconds when this attempt was signed; refuse one far from your clock',
    schema: { type: 'integer', minimum: 0 },
  },
  'webhook-signature': {
    description:
      'v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">, keyed with the base64-decoded part of the secret after ' +
      'whsec_; during a secret rotation two of them, separated by a space, and either is valid',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})?$' },
  },
};

/** The schema's name of an event type's body: licence.status_changed is LicenceStatusChangedEvent. */
export function eventSchemaName(type: EventType): string {
  return `${type.replace(/(^|[._])([a-z])/g, (_match, _separator, letter: string) => letter.toUpperCase())}Event`;
}

/** The operation id of an event type's webhook: licence.status_changed is onLicenceStatusChanged. */
function webhookOperationId(type: EventType): string {
  return `on${eventSchemaName(type).replace(/Event$/, '')}`;
}

function eventSchema(type: EventType): SchemaObject {
  return closed(
    {
      type: { const: type, description: 'The event type' } as SchemaObject,
      timestamp: { type: 'string', format: 'date-time', description: 'When the event happened' },
      data: ref(EVENTS[type].data),
      mode: {
        type: 'string',
        enum: [...KEY_MODES],
        description: "The side of the endpoint's owner: test for an event of the test side (docs/api.md, Test mode), else live",
      },
    },
    `The body of a ${type} delivery`,
  );
}

function webhook(type: EventType): PathItemObject {
  return {
    post: {
      operationId: webhookOperationId(type),
      summary: EVENTS[type].summary,
      description:
        'Sent to each endpoint of the user that subscribes to this type, signed with its secret (Standard Webhooks). ' +
        'The same event is in GET /v1/events.',
      tags: ['monitoring'],
      // Signed by the webhook-signature header: the receiver needs no API key.
      security: [],
      parameters: Object.entries(HEADERS).map(([name, header]) => ({ name, in: 'header' as const, required: true, ...header })),
      requestBody: { required: true, content: { 'application/json': { schema: ref(eventSchemaName(type)) } } },
      responses: {
        '2XX': { description: `Delivered, when it comes within ${DELIVERY_TIMEOUT_MS / 1000} s; redirects are not followed` },
        '410': { description: 'Gone: the endpoint is disabled at once and gets no further deliveries' },
        default: {
          description:
            'Any other answer, or none in time: sent again with the same webhook-id on the retry schedule; 3 days of failures disable the endpoint',
        },
      },
    },
  };
}

/** The webhooks section of the document (one per event type we send) and the schemas it names. */
export const WEBHOOK_DOCS: OpenApiWebhooks = {
  webhooks: Object.fromEntries(EVENT_TYPES.map((type) => [type, webhook(type)])),
  schemas: { ...DATA_SCHEMAS, ...Object.fromEntries(EVENT_TYPES.map((type) => [eventSchemaName(type), eventSchema(type)])) },
};
