import { OpenAPIObject, ResponseObject } from '@nestjs/swagger';

/** Marks every answer to a test key (docs/api.md, Test mode); answers to live keys go without it. */
export const VERIFICATION_MODE_HEADER = 'Verification-Mode';

/**
 * Documents Verification-Mode once, as a header component, and refers to it from every answer of every operation
 * that takes an API key (it answers 401), but 401 itself: no key was accepted then.
 */
export function applyVerificationModeDocs(document: OpenAPIObject): OpenAPIObject {
  document.components = {
    ...document.components,
    headers: {
      ...document.components?.headers,
      [VERIFICATION_MODE_HEADER]: {
        description: 'test on every answer to a test key (lvs_test_), errors included; absent from answers to live keys',
        required: false,
        schema: { type: 'string', enum: ['test'] },
      },
    },
  };
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem) as Array<{ responses?: Record<string, ResponseObject> }>) {
      const responses = operation?.responses;
      if (!responses?.['401']) continue;
      for (const [status, response] of Object.entries(responses)) {
        if (status === '401') continue;
        response.headers = { ...response.headers, [VERIFICATION_MODE_HEADER]: { $ref: `#/components/headers/${VERIFICATION_MODE_HEADER}` } };
      }
    }
  }
  return document;
}
