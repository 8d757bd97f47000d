import { getMetadataStorage } from 'class-validator';
import { FEATURE_VALIDATION_MESSAGES, ROW_MESSAGES, VALIDATION_MESSAGES } from '../errors/error-codes';
import type { ValidationTexts } from '../http/error-examples';
import { unknownFieldMessage } from './request-dto.decorators';

const NESTED = 'nestedValidation';

/**
 * Each fixed text's name in the message tables, the request tables before the rows'. A text two entries of one
 * table share has no name of its own.
 */
function tableNames(): Map<string, string | null> {
  const names = new Map<string, string | null>();
  for (const table of [{ ...VALIDATION_MESSAGES, ...FEATURE_VALIDATION_MESSAGES }, ROW_MESSAGES]) {
    const named = new Set(names.keys());
    for (const [name, text] of Object.entries(table)) if (!named.has(text)) names.set(text, names.has(text) ? null : name);
  }
  return names;
}

/**
 * The texts a request DTO answers with, read from its decorators rather than restated beside the route: the
 * unknown-field text it declares, then each property's messages in the order class-validator checks them. A text
 * is named as in the message tables, or after its property when several entries of a table share it. Nested DTOs
 * are not read, nor the text of a nested row: those come with the row's number, so a route documents one as it
 * comes ("Row 17: …").
 */
export function dtoValidationTexts(type: new () => object): ValidationTexts {
  const names = tableNames();
  const texts = new Map<string, string>();
  const add = (text: string, fallbackName: string) => {
    if (![...texts.values()].includes(text)) texts.set(names.get(text) ?? fallbackName, text);
  };
  // A DTO that declares no unknown-field text answers the generic one, which no table lists.
  const unknownField = unknownFieldMessage(type);
  if (names.has(unknownField)) add(unknownField, 'unknownField');
  const byProperty = getMetadataStorage().groupByPropertyName(getMetadataStorage().getTargetValidationMetadatas(type, '', true, false));
  for (const [property, rules] of Object.entries(byProperty)) {
    for (const { type: rule, message } of rules) if (rule !== NESTED && typeof message === 'string') add(message, property);
  }
  return Object.fromEntries(texts);
}
