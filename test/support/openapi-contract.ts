import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testRunId } from './test-run';

/**
 * Checks answers against the OpenAPI document the app serves, strictly: the status must be documented, every
 * documented header present and of its schema, the media type documented and the body valid under JSON
 * Schema 2020-12 (the dialect of OpenAPI 3.1) with formats checked and no property the document leaves out.
 * Every checked (operation, status) is written to a file of the run, so that global teardown can tell which
 * documented statuses no test produced. Webhook deliveries are checked the same way against the document's
 * webhooks section (test/support/webhook-receiver.ts).
 */

interface HeaderObject {
  required?: boolean;
  schema?: Record<string, unknown>;
}

interface ResponseObject {
  headers?: Record<string, HeaderObject>;
  content?: Record<string, { schema?: Record<string, unknown> }>;
}

interface HeaderParameter extends HeaderObject {
  name: string;
  in: string;
}

/** A webhook of the document: what the service sends, as an operation the partner's endpoint answers. */
interface WebhookOperation {
  parameters?: HeaderParameter[];
  requestBody: { content: Record<string, { schema?: Record<string, unknown> }> };
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, ResponseObject> }>>;
  webhooks?: Record<string, { post?: WebhookOperation }>;
  components?: { schemas?: Record<string, unknown> };
}

/** A delivery as the receiver got it: header names in lower case, the body as sent. */
export interface DeliveryToCheck {
  headers: Record<string, string>;
  raw: string;
}

interface AnswerToCheck {
  status: number;
  headers: Headers;
  text: string;
}

/** `POST /v1/licences/verify`: how operations are named in messages and in the run's files. */
type OperationName = string;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const DOCUMENT_ID = 'served-openapi-document';

function runDirectory(): string {
  const directory = join(tmpdir(), `${testRunId()}_openapi`);
  mkdirSync(directory, { recursive: true });
  return directory;
}

// Jest loads this module once per spec file: each file writes each (operation, status) it sees once.
const recordedThisFile = new Set<string>();

const seenFile = () => join(runDirectory(), 'seen.jsonl');
const documentedFile = () => join(runDirectory(), 'documented.json');

/** Every object schema that lists its properties is closed, so an undocumented field fails validation. */
function closeObjectSchemas(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjectSchemas);
  if (typeof node !== 'object' || node === null) return node;
  const copy = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, key === 'example' || key === 'examples' ? value : closeObjectSchemas(value)]),
  );
  if ('properties' in copy && !('additionalProperties' in copy)) copy.additionalProperties = false;
  return copy;
}

/** A header's text as the value its schema describes (headers are strings on the wire). */
function headerValue(text: string, schema: Record<string, unknown> | undefined): unknown {
  const type = schema?.type;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}

function pathPattern(template: string): RegExp {
  const escaped = template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{[^}]+\\\}/g, '[^/]+');
  return new RegExp(`^${escaped}$`);
}

export class OpenApiContract {
  private static latest: OpenApiContract | undefined;
  private readonly ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  // Keyed by the document's own schema objects.
  private readonly validators = new WeakMap<object, ValidateFunction>();
  private readonly routes: Array<{ template: string; pattern: RegExp }>;

  constructor(private readonly document: OpenApiDocument) {
    this.routes = Object.keys(document.paths).map((template) => ({ template, pattern: pathPattern(template) }));
    addFormats(this.ajv);
    // OpenAPI 3.1's schema dialect adds these keywords to JSON Schema; `components` holds the named schemas.
    this.ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs', 'components']);
    this.ajv.addSchema({ $id: DOCUMENT_ID, components: closeObjectSchemas(document.components ?? {}) });
    writeFileSync(documentedFile(), JSON.stringify(this.documentedStatuses()));
    // Compiled now, not at the first answer of each kind, which may arrive in the middle of a timed test.
    for (const item of Object.values(document.paths)) {
      for (const response of Object.values(item).flatMap((operation) => Object.values(operation.responses ?? {}))) {
        for (const { schema } of [...Object.values(response.headers ?? {}), ...Object.values(response.content ?? {})]) {
          if (schema !== undefined) this.validatorFor(schema);
        }
      }
    }
    for (const webhook of Object.values(document.webhooks ?? {})) {
      for (const { schema } of [...(webhook.post?.parameters ?? []), ...Object.values(webhook.post?.requestBody.content ?? {})]) {
        if (schema !== undefined) this.validatorFor(schema);
      }
    }
    OpenApiContract.latest = this;
  }

  /**
   * The document last loaded in this process. Every app of a run serves the same one, and a webhook delivery does
   * not say which app sent it.
   */
  static loaded(): OpenApiContract | undefined {
    return OpenApiContract.latest;
  }

  static async fetch(baseUrl: string): Promise<OpenApiContract> {
    const response = await fetch(`${baseUrl}/docs/openapi.json`);
    if (response.status !== 200) throw new Error(`GET /docs/openapi.json answered ${response.status}`);
    return new OpenApiContract((await response.json()) as OpenApiDocument);
  }

  /** The documented operation a request goes to, if any: undocumented routes are not checked. */
  private operationOf(method: string, url: string): { name: OperationName; template: string } | undefined {
    const path = url.split('?')[0];
    const template = this.routes.find((route) => route.pattern.test(path))?.template;
    const lowerMethod = method.toLowerCase();
    if (template === undefined || !this.document.paths[template][lowerMethod]) return undefined;
    return { name: `${method.toUpperCase()} ${template}`, template };
  }

  /** Checks an answer a test received and counts its (operation, status) as seen by the run. */
  checkAnswer(method: string, url: string, answer: AnswerToCheck): string[] {
    const operation = this.operationOf(method, url);
    const seen = JSON.stringify({ operation: operation?.name, status: answer.status });
    if (operation !== undefined && !recordedThisFile.has(seen)) {
      recordedThisFile.add(seen);
      appendFileSync(seenFile(), `${seen}\n`);
    }
    return this.problemsOf(method, url, answer);
  }

  /** What is wrong with an answer to a documented operation (empty when it matches the document). */
  problemsOf(method: string, url: string, answer: AnswerToCheck): string[] {
    const operation = this.operationOf(method, url);
    if (operation === undefined) return [];
    const responses = this.document.paths[operation.template][method.toLowerCase()].responses;
    const documented = responses[String(answer.status)] ?? responses.default;
    if (documented === undefined) return [`${operation.name} ${answer.status}: status is not documented`];
    return [...this.headerProblems(documented, answer), ...this.bodyProblems(documented, answer)].map(
      (problem) => `${operation.name} ${answer.status}: ${problem}`,
    );
  }

  /**
   * What is wrong with a webhook delivery under the webhooks section (empty when it matches): the event type must
   * have a webhook, each of its headers be present and of its schema, the media type documented and the body valid.
   */
  webhookProblems(delivery: DeliveryToCheck): string[] {
    let body: { type?: unknown };
    try {
      body = JSON.parse(delivery.raw);
    } catch {
      return [`body is not JSON: ${delivery.raw.slice(0, 200)}`];
    }
    const type = String(body.type);
    const webhook = this.document.webhooks?.[type]?.post;
    if (webhook === undefined) return [`event type "${type}" has no webhook in the document`];
    const headerProblems = (webhook.parameters ?? [])
      .filter((parameter) => parameter.in === 'header')
      .flatMap((parameter) => {
        const text = delivery.headers[parameter.name.toLowerCase()];
        if (text === undefined) return parameter.required ? [`header ${parameter.name} is required but missing`] : [];
        if (parameter.schema === undefined) return [];
        const validate = this.validatorFor(parameter.schema);
        return validate(headerValue(text, parameter.schema)) ? [] : [`header ${parameter.name}: ${this.ajv.errorsText(validate.errors)}`];
      });
    const mediaType = (delivery.headers['content-type'] ?? '').split(';')[0].trim();
    const media = webhook.requestBody.content[mediaType];
    const bodyProblems =
      media === undefined
        ? [`content type "${mediaType}" is not documented (${Object.keys(webhook.requestBody.content).join(', ')})`]
        : media.schema === undefined || this.validatorFor(media.schema)(body)
          ? []
          : [`body ${delivery.raw}: ${this.ajv.errorsText(this.validatorFor(media.schema).errors, { dataVar: 'body' })}`];
    return [...headerProblems, ...bodyProblems].map((problem) => `webhook ${type}: ${problem}`);
  }

  private headerProblems(documented: ResponseObject, answer: AnswerToCheck): string[] {
    return Object.entries(documented.headers ?? {}).flatMap(([name, header]) => {
      const text = answer.headers.get(name);
      if (text === null) return header.required ? [`header ${name} is required but missing`] : [];
      if (header.schema === undefined) return [];
      const validate = this.validatorFor(header.schema);
      return validate(headerValue(text, header.schema)) ? [] : [`header ${name}: ${this.ajv.errorsText(validate.errors)}`];
    });
  }

  private bodyProblems(documented: ResponseObject, answer: AnswerToCheck): string[] {
    const content = documented.content ?? {};
    if (Object.keys(content).length === 0) return answer.text === '' ? [] : ['a body was sent where none is documented'];
    const mediaType = (answer.headers.get('content-type') ?? '').split(';')[0].trim();
    const media = content[mediaType];
    if (media === undefined) return [`content type "${mediaType}" is not documented (${Object.keys(content).join(', ')})`];
    if (media.schema === undefined) return [];
    // A JSON media type is checked as the value it encodes; any other (text/csv) as the text itself.
    let body: unknown = answer.text;
    if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
      try {
        body = JSON.parse(answer.text);
      } catch {
        return [`body is not JSON: ${answer.text.slice(0, 200)}`];
      }
    }
    const validate = this.validatorFor(media.schema);
    return validate(body) ? [] : [`body ${JSON.stringify(body)}: ${this.ajv.errorsText(validate.errors, { dataVar: 'body' })}`];
  }

  /** Points the schema's local $refs at the document's components, which Ajv holds under DOCUMENT_ID. */
  private resolveRefs(schema: unknown): unknown {
    return JSON.parse(JSON.stringify(schema), (key, value) =>
      key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${DOCUMENT_ID}${value}` : value,
    );
  }

  private validatorFor(schema: Record<string, unknown>): ValidateFunction {
    let validate = this.validators.get(schema);
    if (validate === undefined) {
      validate = this.ajv.compile(closeObjectSchemas(this.resolveRefs(schema)) as object);
      this.validators.set(schema, validate);
    }
    return validate;
  }

  private documentedStatuses(): Record<OperationName, string[]> {
    return Object.fromEntries(
      Object.entries(this.document.paths).flatMap(([template, item]) =>
        Object.entries(item)
          .filter(([method]) => HTTP_METHODS.includes(method))
          .map(([method, operation]) => [`${method.toUpperCase()} ${template}`, Object.keys(operation.responses)]),
      ),
    );
  }
}

/**
 * The documented statuses of these operations that no checked answer had, or null when no test of the run
 * checked an answer against the document. The two operations of the interface must all be seen.
 */
export function unseenStatuses(operations: OperationName[]): string[] | null {
  let documented: Record<OperationName, string[]>;
  let seen: Array<{ operation: OperationName; status: number }>;
  try {
    documented = JSON.parse(readFileSync(documentedFile(), 'utf8'));
    seen = readFileSync(seenFile(), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line));
  } catch {
    return null;
  }
  return operations.flatMap((operation) =>
    (documented[operation] ?? [])
      .filter((status) => !seen.some((answer) => answer.operation === operation && String(answer.status) === status))
      .map((status) => `${operation} ${status}`),
  );
}

export const openApiRunDirectory = runDirectory;
