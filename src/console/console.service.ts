import { Injectable } from '@nestjs/common';
import { ApiKeysService, KeyLimitError } from '../auth/api-keys.service';
import { AuthenticatedUser } from '../auth/authenticated-user';
import { issuedKeyMode, KeyMode } from '../auth/key-mode';
import { BatchesService } from '../batches/batches.service';
import { ITEM_STATUSES } from '../batches/batch-view';
import { RosterDto } from '../batches/dto/roster.dto';
import { rosterEntries } from '../batches/roster';
import { writeResultsCsv } from '../batches/roster-csv';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { FEATURE_VALIDATION_MESSAGES, VALIDATION_MESSAGES } from '../errors/error-codes';
import { isUuid } from '../validation/uuid';
import { QuotaService } from '../quota/quota.service';
import { VERIFICATION_ANSWERS, VerificationOutcomes } from '../quota/verification-outcomes';
import { isLicenceNumber } from '../validation/licence-number';
import { verificationAnswer } from '../verification/outcome-status';
import { AnswerRecords } from '../verification/answer-records';
import { VerificationsQuery, RecordsExportQuery } from '../verification-records/dto/verifications-query.dto';
import { VerificationRecordsService } from '../verification-records/verification-records.service';
import { VerificationService } from '../verification/verification.service';
import { WatchlistService } from '../watchlist/watchlist.service';
import { EventsService } from '../events/events.service';
import { eventView } from '../events/event-view';
import { CreateWebhookDto } from '../webhooks/dto/webhook.dto';
import { EndpointsService } from '../webhooks/endpoints.service';
import { WebhookUrlCheck } from '../webhooks/webhook-url-check';
import { HolderVerification, HolderChecksService } from '../holders/holder-checks.service';
import { VerifyHolderDto } from '../holders/dto/holder-check-request.dto';
import { RequestValidationPipe } from '../validation/request-validation.pipe';
import {
  ANSWER_WORDS,
  batchProgress,
  CHART,
  HolderCheckLine,
  holderCheckLines,
  recheckWords,
  ROSTER_OUTCOMES,
  rosterRows,
  usageChart,
  usageWords,
  usedPercent,
  VerificationView,
  verificationView,
  watchRow,
} from './console-view';
import { VerifyForm } from './console-forms';

const WATCH_PAGE_SIZE = 50;
const DELIVERIES_SHOWN = 10;
const EVENTS_SHOWN = 20;

/** The holder's fields of the Verify page as typed (blank when not given). */
export interface HolderFields {
  firstName: string;
  surname: string;
  dateOfBirth: string;
}

export interface VerifyOutcome {
  licenceNumber: string;
  /** shown again in the form, and sent again while PENDING */
  holder: HolderFields;
  /** the error table's words for a refused number or a failed verification */
  error: string | null;
  result: VerificationView | null;
  /** the holder check's lines, when names were given and the licence was found */
  holderCheck: HolderCheckLine[] | null;
  /** while PENDING: the key that picks up the same lookup */
  idempotencyKey: string | null;
}

/** What the console's pages show, read through the feature services with the signed-in user's own scope. */
@Injectable()
export class ConsoleService {
  /** how often this deployment checks watched numbers again, in words */
  private readonly recheckEvery: string;

  constructor(
    private readonly quota: QuotaService,
    private readonly outcomes: VerificationOutcomes,
    private readonly verifications: VerificationService,
    private readonly holders: HolderChecksService,
    private readonly records: AnswerRecords,
    private readonly history: VerificationRecordsService,
    private readonly validation: RequestValidationPipe,
    private readonly keys: ApiKeysService,
    private readonly batches: BatchesService,
    private readonly watchlist: WatchlistService,
    private readonly endpoints: EndpointsService,
    private readonly webhookUrls: WebhookUrlCheck,
    private readonly events: EventsService,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.recheckEvery = recheckWords(config.get('WATCH_RECHECK_SECONDS'));
  }

  async overview(user: AuthenticatedUser) {
    const [usage, history, answers] = await Promise.all([
      this.quota.usage(user),
      this.quota.history(user, 12),
      this.outcomes.read(user.userId, this.quota.currentPeriod()),
    ]);
    return {
      usage,
      usageWords: usageWords(usage),
      percent: usedPercent(usage.used, usage.quota),
      history: history.periods,
      bars: usageChart(history.periods),
      chart: CHART,
      answers: VERIFICATION_ANSWERS.map((answer) => ({ answer, count: answers[answer], words: ANSWER_WORDS[answer] })),
    };
  }

  /** Verify, or with any of the holder's fields a holder check, as the API answers them; refusals in the API's words. */
  async verify(user: AuthenticatedUser, form: VerifyForm, requestId: string): Promise<VerifyOutcome> {
    const holder = { firstName: form.firstName?.trim() ?? '', surname: form.surname?.trim() ?? '', dateOfBirth: form.dateOfBirth?.trim() ?? '' };
    const shown = { licenceNumber: form.licenceNumber, holder, error: null, result: null, holderCheck: null, idempotencyKey: null };
    const number = form.licenceNumber.trim();
    if (!isLicenceNumber(number)) return { ...shown, error: VALIDATION_MESSAGES.licenceNumber };
    try {
      const { verification, holderCheck } = await this.verifyOrCheckHolder(user, number, holder, form.idempotencyKey, requestId);
      const holderAsked = holder.firstName !== '' || holder.surname !== '' || holder.dateOfBirth !== '';
      const answered = holderAsked ? { claim: { ...holder, dateOfBirth: holder.dateOfBirth || undefined }, check: holderCheck } : undefined;
      const verificationId = await this.records.idOf(user, 'console', requestId, number, verification, answered);
      const { body } = verificationAnswer(verification.result, verificationId);
      this.outcomes.count(user.userId, body.status);
      return {
        ...shown,
        licenceNumber: number,
        result: verificationView(body, this.clock.now()),
        holderCheck: body.status === 'FOUND' && holderCheck ? holderCheckLines(holderCheck) : null,
        idempotencyKey: body.status === 'PENDING' ? verification.idempotencyKey : null,
      };
    } catch (error) {
      if (error instanceof ApiError) return { ...shown, licenceNumber: number, error: error.publicMessage };
      throw error;
    }
  }

  /** A holder check when any of the holder's fields is filled in, checked by verify-holder's own DTO; verify otherwise. */
  private async verifyOrCheckHolder(
    user: AuthenticatedUser,
    licenceNumber: string,
    { firstName, surname, dateOfBirth }: HolderFields,
    idempotencyKey: string | undefined,
    requestId: string,
  ): Promise<HolderVerification> {
    if (firstName === '' && surname === '' && dateOfBirth === '') {
      return { verification: await this.verifications.verify(user, licenceNumber, idempotencyKey, requestId), holderCheck: null };
    }
    const claim = (await this.validation.transform(
      { licenceNumber, firstName, surname, ...(dateOfBirth === '' ? {} : { dateOfBirth }) },
      { type: 'body', metatype: VerifyHolderDto },
    )) as VerifyHolderDto;
    return this.holders.verifyHolder(user, claim, idempotencyKey, requestId);
  }

  /** One page of the History page, filtered as GET /v1/verifications is; a bad filter is shown in the API's words. */
  async historyPage(user: AuthenticatedUser, query: Record<string, unknown>) {
    // A GET form sends its empty fields too: they filter nothing.
    const filters = Object.fromEntries(Object.entries(query).filter(([, value]) => value !== '')) as Record<string, string>;
    try {
      const checked = (await this.validation.transform(filters, { type: 'query', metatype: VerificationsQuery })) as VerificationsQuery;
      return { filters, ...(await this.history.list(user, checked)), error: null };
    } catch (error) {
      if (error instanceof ApiError) return { filters, verifications: [], nextCursor: null, error: error.publicMessage };
      throw error;
    }
  }

  /** The History page's CSV download: the API's export of the period. */
  async historyCsv(user: AuthenticatedUser, query: Record<string, unknown>): Promise<NodeJS.ReadableStream> {
    const filters = Object.fromEntries(Object.entries(query).filter(([, value]) => value !== ''));
    const period = (await this.validation.transform(filters, { type: 'query', metatype: RecordsExportQuery })) as RecordsExportQuery;
    return this.history.exportCsv(user.userId, period);
  }

  /** A record's receipt, as GET /v1/verifications/{id}/receipt signs it. */
  historyReceipt(user: AuthenticatedUser, verificationId: string, issuer: string): Promise<string> {
    if (!isUuid(verificationId)) throw new ApiError('VERIFICATION_NOT_FOUND');
    return this.history.receipt(user, verificationId, issuer);
  }

  async keyList(user: AuthenticatedUser) {
    const keys = await this.keys.userKeys(user.userId, user.keyId);
    return keys.map((key) => ({ ...key, current: key.id === user.keyId }));
  }

  /** A new key for the user, shown once; or the API's words for why not. */
  async createKey(user: AuthenticatedUser, name: string, requestedMode?: KeyMode): Promise<{ key: string; name: string } | { error: string }> {
    const mode = issuedKeyMode(user.mode, requestedMode);
    if (mode === null) return { error: FEATURE_VALIDATION_MESSAGES.keyModeLive };
    try {
      const created = await this.keys.createUserKey(user.userId, user.keyId, { name, expiresAt: null, mode });
      return { key: created.key, name: created.name };
    } catch (error) {
      if (error instanceof KeyLimitError) return { error: FEATURE_VALIDATION_MESSAGES.keyLimit };
      throw error;
    }
  }

  /** Revokes the session's key or one it issued: KEY_NOT_FOUND for any other id, as the API answers. */
  async revokeKey(user: AuthenticatedUser, keyId: string): Promise<void> {
    if (!isUuid(keyId) || !(await this.keys.revokeUserKey(user.userId, user.keyId, keyId))) throw new ApiError('KEY_NOT_FOUND');
  }

  /** The user's batches, newest first. */
  async rosterList(user: AuthenticatedUser) {
    return (await this.batches.list(user, { limit: 50, after: null })).batches;
  }

  /** Starts a batch, as POST /v1/batches does; it waits for the lookups no longer than a verification does. */
  async checkRoster(user: AuthenticatedUser, roster: RosterDto, requestId: string): Promise<{ id: string }> {
    const batch = await this.batches.create(user, rosterEntries(roster), requestId);
    return { id: batch.id };
  }

  /** A batch with its progress and its rows, of one outcome when asked (another user's id: BATCH_NOT_FOUND). */
  async roster(user: AuthenticatedUser, batchId: string, outcome: string | undefined) {
    const batch = await this.batches.view(user, batchId, { limit: 1000, after: null });
    const shown = outcome !== undefined && (ITEM_STATUSES as readonly string[]).includes(outcome) ? outcome : null;
    return { batch, progress: batchProgress(batch), outcomes: ROSTER_OUTCOMES, outcome: shown, rows: rosterRows(batch.items, shown) };
  }

  async rosterCsv(user: AuthenticatedUser, batchId: string): Promise<string> {
    return writeResultsCsv(await this.batches.resultRows(user.userId, batchId));
  }

  /** One page of the watchlist, 50 numbers, after the last number of the previous page (an unreadable one: the start). */
  async watchPage(user: AuthenticatedUser, after: string | undefined) {
    const start = after !== undefined && isLicenceNumber(after) ? after : null;
    const page = await this.watchlist.list(user, { limit: WATCH_PAGE_SIZE, after: start, status: null, expiringWithinDays: null });
    return { rows: page.items.map(watchRow), nextCursor: page.nextCursor, first: start === null, recheckEvery: this.recheckEvery };
  }

  /** Watches a number, as PUT /v1/watchlist/{number} does; the error table's words for a bad number. */
  async watch(user: AuthenticatedUser, licenceNumber: string, reference: string | undefined): Promise<string | null> {
    const number = licenceNumber.trim();
    if (!isLicenceNumber(number)) return VALIDATION_MESSAGES.licenceNumber;
    await this.watchlist.watch(user, number, reference?.trim() || null);
    return null;
  }

  /** Stops watching one of the user's numbers: WATCH_NOT_FOUND for any other, as the API answers. */
  async unwatch(user: AuthenticatedUser, licenceNumber: string): Promise<void> {
    if (!isLicenceNumber(licenceNumber)) throw new ApiError('WATCH_NOT_FOUND');
    await this.watchlist.unwatch(user.userId, licenceNumber);
  }

  /** Watches every number of a CSV, as POST /v1/watchlist:batchAdd does with JSON. */
  importWatchlist(user: AuthenticatedUser, roster: RosterDto): Promise<{ added: number; updated: number }> {
    return this.watchlist.watchMany(user, rosterEntries(roster));
  }

  /** The user's endpoints, each with its newest deliveries, and the newest events. */
  async webhooks(user: AuthenticatedUser) {
    const endpoints = await this.endpoints.list(user);
    const withLogs = await Promise.all(
      endpoints.map(async (endpoint) => ({
        endpoint,
        deliveries: (await this.endpoints.deliveries(user.userId, endpoint.id)).slice(0, DELIVERIES_SHOWN),
      })),
    );
    const events = (await this.events.latest(user.userId, EVENTS_SHOWN)).map((event) => eventView(event, user.mode));
    return { endpoints: withLogs, events };
  }

  /** Adds an endpoint, as POST /v1/webhooks does; its secret is shown once. The URL rule's words when refused. */
  async addWebhook(user: AuthenticatedUser, webhook: CreateWebhookDto): Promise<{ secret: string; url: string } | { error: string }> {
    if ((await this.webhookUrls.problem(webhook.url)) !== null) return { error: FEATURE_VALIDATION_MESSAGES.webhookUrl };
    const created = await this.endpoints.create(user, webhook);
    return { secret: created.secret, url: created.url };
  }

  async testWebhook(user: AuthenticatedUser, endpointId: string): Promise<void> {
    await this.endpoints.test(user.userId, endpointId);
  }

  async rotateWebhookSecret(user: AuthenticatedUser, endpointId: string): Promise<{ secret: string; previousSecretExpiresAt: string }> {
    return this.endpoints.rotateSecret(user.userId, endpointId);
  }

  async removeWebhook(user: AuthenticatedUser, endpointId: string): Promise<void> {
    await this.endpoints.remove(user.userId, endpointId);
  }

  async retryDelivery(user: AuthenticatedUser, endpointId: string, deliveryId: string): Promise<void> {
    await this.endpoints.retry(user.userId, endpointId, deliveryId);
  }
}
