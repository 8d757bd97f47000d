import { ERROR_CODES } from '../errors/error-codes';

const unknownFieldMessages = new WeakMap<object, string>();
const optionalBodies = new WeakSet<object>();

/** The class and the classes it extends, nearest first. */
function* lineage(type: unknown): Generator<object> {
  for (let current = type; typeof current === 'function'; current = Object.getPrototypeOf(current)) yield current;
}

/** The fixed text a request DTO answers to a field it does not declare (class-validator's own names it). */
export function UnknownFieldMessage(message: string): ClassDecorator {
  return (target) => {
    unknownFieldMessages.set(target, message);
  };
}

/** The text for an unknown field of a request DTO class (the generic one if it declares none). */
export function unknownFieldMessage(type: unknown): string {
  for (const owner of lineage(type)) {
    const message = unknownFieldMessages.get(owner);
    if (message !== undefined) return message;
  }
  return ERROR_CODES.VALIDATION_ERROR.message;
}

/** A body DTO whose request may come without a body; any other route answers a missing body 400. */
export function OptionalBody(): ClassDecorator {
  return (target) => {
    optionalBodies.add(target);
  };
}

export function isOptionalBody(type: unknown): boolean {
  return [...lineage(type)].some((owner) => optionalBodies.has(owner));
}
