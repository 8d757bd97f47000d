import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { ApiKeysService, KeyLimitError } from '../auth/api-keys.service';
import { AuthenticatedUser } from '../auth/authenticated-user';
import { issuedKeyMode, KeyMode } from '../auth/key-mode';
import { BatchesService } from '../batches/batches.service';
import { ITEM_STATUSES } from '../batches/batch-view';
import { RosterDto } from '../common/roster.dto';
import { rosterEntries } from '../common/roster';
import { writeResultsCsv } from '../batches/roster-csv';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { ERROR_CODES, FEATURE_VALIDATION_MESSAGES, VALIDATION_MESSAGES } from '../errors/error-codes';
import { isUuid } from '../validation/uuid';
import { QuotaService } from '../quota/quota.service';
import { VERIFICATION_ANSWERS, VerificationOutcomes } from '../verification/verification-outcomes';
import { isLicenceNumber } from '../validation/licence-number';
import { AnswerFinisher } from '../verification/answer-finisher';
import { RecordsExportQuery } from '../verification-records/dto/verifications-query.dto';
import { VerificationRecordsService } from '../verification-records/verification-records.service';
import { VerificationService } from '../verification/verification.service';
import { WatchlistService } from '../watchlist/watchlist.service';
import { EventsService } from '../events/events.service';
import { eventView } from '../events/event-view';
import { CreateWebhookDto, UpdateWebhookDto } from '../webhooks/dto/webhook.dto';
import { EndpointsService } from '../webhooks/endpoints.service';
import { WebhookUrlCheck } from '../webhooks/webhook-url-check';
import { HolderChecksService } from '../holders/holder-checks.service';
import {
  ANSWER_WORDS,
  batchProgress,
  CHART,
  holderCheckLines,
  recheckWords,
  ROSTER_OUTCOMES,
  rosterRows,
  usageChart,
  usageWords,
  usedPercent,
  verificationView,
  watchRow,
} from './console-view';
import { HistoryQuery, VerifyForm } from './console-forms';
import { historyFilters, holderFields, VerifyOutcome } from './form-pages';
import type { ActivityOrigin } from '../activity/activity-log';
import { MembersService } from '../members/members.service';
import { issuableRoles, KeyRole, mayIssueRole } from '../auth/key-role';

const WATCH_PAGE_SIZE = 50;
const DELIVERIES_SHOWN = 10;
const EVENTS_SHOWN = 20;

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
    private readonly answers: AnswerFinisher,
    private readonly history: VerificationRecordsService,
    private readonly keys: ApiKeysService,
    private readonly batches: BatchesService,
    private readonly watchlist: WatchlistService,
    private readonly endpoints: EndpointsService,
    private readonly webhookUrls: WebhookUrlCheck,
    private readonly events: EventsService,
    private readonly clock: Clock,
    private readonly members: MembersService,
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

  /**
   * Verify, or with any of the holder's fields a holder check, as the API answers them. The form comes checked by
   * the API's rules; a refusal, of the form or by the API, is shown on the page (`@ShowsRefusal`).
   */
  async verify(user: AuthenticatedUser, form: VerifyForm, requestId: string): Promise<VerifyOutcome> {
    const { licenceNumber, firstName, surname, dateOfBirth, idempotencyKey } = form;
    // Validated: with any of the holder's fields filled in, both names are.
    const claim = firstName !== undefined && surname !== undefined ? { firstName, surname, dateOfBirth } : null;
    const { verification, holderCheck } =
      claim === null
        ? { verification: await this.verifications.verify(user, licenceNumber, idempotencyKey, requestId), holderCheck: null }
        : await this.holders.verifyHolder(user, { licenceNumber, ...claim }, idempotencyKey, requestId);
    const answered = claim === null ? undefined : { claim, check: holderCheck };
    const { body } = await this.answers.finish(user, 'console', requestId, licenceNumber, verification, answered);
    return {
      licenceNumber,
      holder: holderFields(form),
      error: null,
      result: verificationView(body, this.clock.now()),
      holderCheck: body.status === 'FOUND' && holderCheck ? holderCheckLines(holderCheck) : null,
      idempotencyKey: body.status === 'PENDING' ? verification.idempotencyKey : null,
    };
  }

  /** One page of the History page, filtered as GET /v1/verifications is; a bad filter is shown on the page (`@ShowsRefusal`). */
  async historyPage(user: AuthenticatedUser, query: HistoryQuery) {
    // The account's members by name, removed ones too: the records they made keep naming them.
    const members = [...(await this.members.displayNames(user.userId))];
    return { filters: historyFilters(query), members, ...(await this.history.list(user, query)), error: null };
  }

  /** The History page's CSV download: the API's export of the period. */
  historyCsv(user: AuthenticatedUser, period: RecordsExportQuery): Promise<Readable> {
    return this.history.exportCsv(user.userId, period);
  }

  /** A record's receipt, as GET /v1/verifications/{id}/receipt signs it. */
  historyReceipt(user: AuthenticatedUser, verificationId: string): Promise<string> {
    if (!isUuid(verificationId)) throw new ApiError('VERIFICATION_NOT_FOUND');
    return this.history.receipt(user, verificationId);
  }

  async keysPage(user: AuthenticatedUser) {
    const keys = await this.keys.userKeys(user.userId, user.keyId);
    return { keys: keys.map((key) => ({ ...key, current: key.id === user.keyId })), roles: issuableRoles(user.role) };
  }

  /** A new key for the user, of the session key's role or a lesser one, shown once; or the API's words for why not. */
  async createKey(
    origin: ActivityOrigin,
    user: AuthenticatedUser,
    name: string,
    requestedMode?: KeyMode,
    requestedRole?: KeyRole,
  ): Promise<{ key: string; name: string } | { error: string }> {
    const mode = issuedKeyMode(user.mode, requestedMode);
    if (mode === null) return { error: FEATURE_VALIDATION_MESSAGES.keyModeLive };
    const role = requestedRole ?? user.role;
    if (!mayIssueRole(user.role, role)) return { error: ERROR_CODES.FORBIDDEN.message };
    try {
      const created = await this.keys.createUserKey(origin, user.userId, user.keyId, { name, expiresAt: null, mode, role });
      return { key: created.key, name: created.name };
    } catch (error) {
      if (error instanceof KeyLimitError) return { error: FEATURE_VALIDATION_MESSAGES.keyLimit };
      throw error;
    }
  }

  /** Revokes the session's key or one it issued: KEY_NOT_FOUND for any other id, as the API answers. */
  async revokeKey(origin: ActivityOrigin, user: AuthenticatedUser, keyId: string): Promise<void> {
    if (!isUuid(keyId) || !(await this.keys.revokeUserKey(origin, user.userId, user.keyId, keyId))) throw new ApiError('KEY_NOT_FOUND');
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
  importWatchlist(origin: ActivityOrigin, user: AuthenticatedUser, roster: RosterDto): Promise<{ added: number; updated: number }> {
    return this.watchlist.watchMany(origin, user, rosterEntries(roster));
  }

  /** The Webhooks page: the user's endpoints, each with its newest deliveries, the newest events, and what was just shown once. */
  async webhooksPage(user: AuthenticatedUser, shown: { secret?: string; url?: string; changed?: string; error?: string }) {
    const endpoints = await this.endpoints.list(user);
    const withLogs = await Promise.all(
      endpoints.map(async (endpoint) => ({
        endpoint,
        deliveries: (await this.endpoints.deliveries(user.userId, endpoint.id)).slice(0, DELIVERIES_SHOWN),
      })),
    );
    const events = (await this.events.latest(user.userId, EVENTS_SHOWN)).map((event) => eventView(event, user.mode));
    return { endpoints: withLogs, events, shown };
  }

  /** Adds an endpoint, as POST /v1/webhooks does; its secret is shown once. The URL rule's words when refused. */
  async addWebhook(
    origin: ActivityOrigin,
    user: AuthenticatedUser,
    webhook: CreateWebhookDto,
  ): Promise<{ secret: string; url: string } | { error: string }> {
    if ((await this.webhookUrls.problem(webhook.url)) !== null) return { error: FEATURE_VALIDATION_MESSAGES.webhookUrl };
    const created = await this.endpoints.create(origin, user, webhook);
    return { secret: created.secret, url: created.url };
  }

  /** Changes an endpoint's URL, as PATCH /v1/webhooks/{id} does. The URL rule's words when refused. */
  async changeWebhookUrl(
    origin: ActivityOrigin,
    user: AuthenticatedUser,
    endpointId: string,
    change: UpdateWebhookDto,
  ): Promise<{ changed: string } | { error: string }> {
    if (change.url !== undefined && (await this.webhookUrls.problem(change.url)) !== null) return { error: FEATURE_VALIDATION_MESSAGES.webhookUrl };
    const updated = await this.endpoints.update(origin, user, endpointId, change);
    return { changed: updated.url };
  }

  async testWebhook(user: AuthenticatedUser, endpointId: string): Promise<void> {
    await this.endpoints.test(user.userId, endpointId);
  }

  async rotateWebhookSecret(
    origin: ActivityOrigin,
    user: AuthenticatedUser,
    endpointId: string,
  ): Promise<{ secret: string; previousSecretExpiresAt: string }> {
    return this.endpoints.rotateSecret(origin, user.userId, endpointId);
  }

  async removeWebhook(origin: ActivityOrigin, user: AuthenticatedUser, endpointId: string): Promise<void> {
    await this.endpoints.remove(origin, user.userId, endpointId);
  }

  async retryDelivery(user: AuthenticatedUser, endpointId: string, deliveryId: string): Promise<void> {
    await this.endpoints.retry(user.userId, endpointId, deliveryId);
  }
}
