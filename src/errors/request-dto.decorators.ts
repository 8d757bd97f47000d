import { ERROR_CODES } from './error-codes';

const UNKNOWN_FIELD_MESSAGE = Symbol('unknownFieldMessage');
const OPTIONAL_BODY = Symbol('optionalBody');

/** The fixed text a request DTO answers to a field it does not declare (class-validator's own names it). */
export function UnknownFieldMessage(message: string): ClassDecorator {
  return (target) => {
    Reflect.defineMetadata(UNKNOWN_FIELD_MESSAGE, message, target);
  };
}

/** The text for an unknown field of a request DTO class (the generic one if it declares none). */
export function unknownFieldMessage(type: unknown): string {
  const message: unknown = typeof type === 'function' ? Reflect.getMetadata(UNKNOWN_FIELD_MESSAGE, type) : undefined;
  return typeof message === 'string' ? message : ERROR_CODES.VALIDATION_ERROR.message;
}

/** A body DTO whose request may come without a body; any other route answers a missing body 400. */
export function OptionalBody(): ClassDecorator {
  return (target) => {
    Reflect.defineMetadata(OPTIONAL_BODY, true, target);
  };
}

export function isOptionalBody(type: unknown): boolean {
  return typeof type === 'function' && Reflect.getMetadata(OPTIONAL_BODY, type) === true;
}
