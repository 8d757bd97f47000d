import { SetMetadata } from '@nestjs/common';
import { ApiError } from '../errors/api-error';
import { FEATURE_VALIDATION_MESSAGES } from '../errors/error-codes';
import { RejectedBody } from '../http/decode-request-body';

/** A route's page shown again: its data from the fields as they were sent, and the words of why they were refused. */
export type RefusedPage = (sent: Record<string, unknown>, words: string) => object;

export interface RefusalOnPage {
  /** where the route's form arrives: a POST form's body, a GET form's query */
  form: 'body' | 'query';
  page: RefusedPage;
}

export const REFUSAL_ON_PAGE = 'console:refusal-on-page';

/**
 * The route's page shows the API's refusal of what its form asks, at the route's own status, in the API's words:
 * the global pipe's refusal of the form's content, or the service's answer. ConsolePageInterceptor renders it.
 */
export const ShowsRefusal = (form: RefusalOnPage['form'], page: RefusedPage) => SetMetadata(REFUSAL_ON_PAGE, { form, page } satisfies RefusalOnPage);

/**
 * The route's page for a refusal of its form, or null when it stays the error answer every route gives: a form that
 * could not be read (wrong type, too large, none) has no fields to show again, and a fault of the form itself (a
 * field no page sends, text longer than any field takes) did not come from the page.
 */
export function refusedPage({ page }: RefusalOnPage, sent: unknown, error: unknown): object | null {
  if (!(error instanceof ApiError) || !isReadForm(sent) || error.publicMessage === FEATURE_VALIDATION_MESSAGES.consoleForm) return null;
  return page(sent, error.publicMessage);
}

function isReadForm(sent: unknown): sent is Record<string, unknown> {
  return typeof sent === 'object' && sent !== null && !Array.isArray(sent) && !(sent instanceof RejectedBody);
}
