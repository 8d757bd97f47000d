export {
  LicenceVerificationClient,
  type AnswerContext,
  type ClientOptions,
  type HolderResult,
  type Mode,
  type Pending,
  type SearchResult,
  type VerificationResult,
  type WaitOptions,
} from './client.js';
export { LicenceVerificationError, type ErrorCode } from './errors.js';
export type { VerifiedReceipt, VerifyReceiptOptions } from './receipts.js';
export { verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookHeaders } from './webhooks.js';
export type { components, paths, webhooks } from './generated/openapi.js';
