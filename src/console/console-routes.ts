import { applyDecorators, Post, Redirect } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { FORM_BODY } from '../http/decode-request-body';

/** The downloads' type (roster results, History's export, the activity log). */
export const CSV = 'text/csv; charset=utf-8';

/** A console form's body: URL-encoded, as a page's form sends it. */
export const FORM = { requestBody: FORM_BODY };

/**
 * A form that changes something, then back to a page (Post/Redirect/Get, so a reload sends nothing twice). A form
 * whose only field is its CSRF token is still taken as its DTO (`_form`), so the pipe refuses unknown fields.
 */
export const FormThenShow = (path: string, page: string) => applyDecorators(Post(path), RouteConfig(FORM), Redirect(page, 303));
