import { applyDecorators, Post, Redirect } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ConsolePage } from '../console/console-answers';
import { FORM_BODY } from '../http/decode-request-body';

/** A form's route: its body read as the console's forms are. */
export const FORM = { requestBody: FORM_BODY };

/** The page of something that does not exist (no such partner, key, operator or passkey), in the pages' words. */
export const notFound = () => new ConsolePage('not-found', {}, 404);

/** A change, then back to a page (Post/Redirect/Get): the handler answers `{ url }`. */
export const ChangeThenShow = (path: string) => applyDecorators(Post(path), RouteConfig(FORM), Redirect('', 303));
