import { Logger, NestApplicationOptions } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AppConfig } from '../config/app-config';
import { AppSettings } from '../config/env.schema';
import { sendErrorAnswer } from '../errors/api-error.filter';
import { ApiError } from '../errors/api-error';
import { AnswersInProgress, createClientErrorHandler } from '../errors/client-error.handler';
import { VALIDATION_MESSAGES } from '../errors/error-codes';
import { mapFrameworkError, toErrorAnswer } from '../errors/map-framework-error';
import { ApiKeyBodyGate, BodyGate } from './body-gates';
import { BodyParser, registerBodyParsers } from './body-parsers';
import { BodyPolicy, DecodedMediaType, decodeRequestBody, JSON_BODY, MAX_REQUEST_BODY_BYTES } from './decode-request-body';
import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { AppLogger } from '../logging/create-logger';
import { Metrics } from '../metrics/metrics';
import { registerHttpMetrics } from '../metrics/http-metrics';
import { chooseRequestId } from '../logging/request-id';
import { registerRequestLogging } from '../logging/request-logging';
import { mountOpenApi } from './openapi';
import { readCappedRequestBody } from './read-capped-request-body';
import { registerSecurityHeaders } from './security-headers';
import { activeTracing } from '../tracing/tracing';

// Node checks request deadlines on a timer, every 30 s by default; each second keeps a 408 near its deadline.
const DEADLINE_CHECK_INTERVAL_MS = 1000;

/** Options for NestFactory.create: our body parsers (configureHttp) replace Nest's JSON and form parsers. */
export const HTTP_APP_OPTIONS: NestApplicationOptions = { bodyParser: false };

/** Fastify-specific setup, shared by main.ts and the e2e tests. */
export function createFastifyAdapter(settings: AppSettings): FastifyAdapter {
  const answers = new AnswersInProgress();
  const adapter = new FastifyAdapter({
    trustProxy: settings.TRUST_PROXY,
    genReqId: (request: IncomingMessage) => chooseRequestId(request.headers['x-request-id'], randomUUID),
    // Idle keep-alive sockets close at once on shutdown; requests still arriving on busy ones get our
    // own 503 body from the shutdown hook instead of Fastify's.
    forceCloseConnections: 'idle',
    return503OnClosing: false,
    requestTimeout: settings.REQUEST_BODY_TIMEOUT_MS,
    keepAliveTimeout: settings.KEEP_ALIVE_TIMEOUT_MS,
    http: {
      headersTimeout: settings.REQUEST_HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: DEADLINE_CHECK_INTERVAL_MS,
      // Node would answer an HTTP/1.1 request without Host with an empty 400; our hook answers it instead.
      requireHostHeader: false,
    },
    clientErrorHandler: createClientErrorHandler(new Logger('HTTP'), answers),
    // The router rejects an undecodable path before any hook or filter runs.
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) =>
      sendErrorAnswer(reply, toErrorAnswer(mapFrameworkError(error.statusCode, error.code) ?? { code: 'INTERNAL_ERROR' })),
  });
  answers.follow(adapter.getInstance().server);
  return adapter;
}

/** What a route's @RouteConfig may say about its body. */
interface BodyRouteConfig {
  requestBody?: BodyPolicy;
  /** who may send a body past MAX_REQUEST_BODY_BYTES; ApiKeyBodyGate unless named */
  bodyGate?: abstract new () => BodyGate;
}

/**
 * Fastify's parser for one media type (`undefined` for every other, and for a body without Content-Type): it reads
 * the body without ever failing, and problems travel as a RejectedBody to the validation pipe, which runs after the
 * API key guard. A route that takes more than MAX_REQUEST_BODY_BYTES asks its gate first whether the sender may
 * send that much: one it does not admit is read up to MAX_REQUEST_BODY_BYTES only, so a caller without a key cannot
 * make us receive or parse a large body; the guard then answers it as usual.
 */
function requestBodyParsers(app: NestFastifyApplication): (mediaType: DecodedMediaType | undefined) => BodyParser {
  const gates = new Map<abstract new () => BodyGate, BodyGate>();
  const gateOf = (token: abstract new () => BodyGate): BodyGate => {
    if (!gates.has(token)) gates.set(token, app.get(token, { strict: false }));
    return gates.get(token)!;
  };
  return (mediaType) => async (request, payload) => {
    const config = request.routeOptions.config as BodyRouteConfig;
    const policy = config.requestBody ?? JSON_BODY;
    const announced = Number(request.headers['content-length']);
    const mayBeLarge = policy.maxBytes > MAX_REQUEST_BODY_BYTES && !(announced <= MAX_REQUEST_BODY_BYTES);
    const cap = mayBeLarge && !(await gateOf(config.bodyGate ?? ApiKeyBodyGate).admits(request)) ? MAX_REQUEST_BODY_BYTES : policy.maxBytes;
    // A length announced over the cap needs no byte read to be refused.
    const { bytes, size } = announced > cap ? { bytes: Buffer.alloc(0), size: announced } : await readCappedRequestBody(payload, cap);
    if (size > cap) BODIES_LEFT_UNREAD.add(request.raw);
    // One not admitted is held to the ordinary limit, and told that one if its body is over it.
    const held = cap === policy.maxBytes ? policy : { ...policy, maxBytes: cap, tooLarge: JSON_BODY.tooLarge };
    return decodeRequestBody(mediaType, bytes, held, size);
  };
}

/**
 * Requests whose bodies were refused before their end. Their connection cannot carry another request (the rest
 * of the body would be read as one), so the answer closes it: Node then ends the socket once the answer is out.
 */
const BODIES_LEFT_UNREAD = new WeakSet<IncomingMessage>();

function closeAfterUnreadBody(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void {
  if (BODIES_LEFT_UNREAD.has(request.raw)) void reply.header('connection', 'close');
  done(null, payload);
}

function rejectHttp11WithoutHost(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
    done(ApiError.validation(VALIDATION_MESSAGES.hostRequired));
    return;
  }
  done();
}

/**
 * How the service reads requests, for an application created with HTTP_APP_OPTIONS: the Host rule and our body
 * parsers (the partner app, and the operators' listener for its console's forms).
 */
export function registerRequestReading(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', rejectHttp11WithoutHost);
  registerBodyParsers(fastify, requestBodyParsers(app));
  fastify.addHook('onSend', closeAfterUnreadBody);
}

export async function configureHttp(app: NestFastifyApplication, logger: AppLogger): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  // Before the request log's hooks, so that its line carries the request's trace.
  activeTracing()?.traceRequests(fastify);
  registerRequestLogging(fastify, logger.pino);
  registerHttpMetrics(fastify, app.get(Metrics));
  registerRequestReading(app);
  registerSecurityHeaders(fastify);
  const corsOrigins = app.get(AppConfig).get('CORS_ORIGINS');
  if (corsOrigins.length > 0) app.enableCors({ origin: [...corsOrigins] });
  mountOpenApi(app);
}
