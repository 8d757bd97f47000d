import { HeaderObject, OpenAPIObject, ResponseObject } from '@nestjs/swagger';

/** Marks every answer to a test key (docs/api.md, Test mode); answers to live keys go without it. */
export const VERIFICATION_MODE_HEADER = 'Verification-Mode';

const VERIFICATION_MODE: HeaderObject = {
  description: 'test on every answer to a test key (lvs_test_), errors included; absent from answers to live keys',
  required: false,
  schema: { type: 'string', enum: ['test'] },
};

/** Documents Verification-Mode on every answer of every operation that takes an API key (it answers 401) but 401: no key was accepted then. */
export function applyVerificationModeDocs(document: OpenAPIObject): OpenAPIObject {
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem) as Array<{ responses?: Record<string, ResponseObject> }>) {
      const responses = operation?.responses;
      if (!responses?.['401']) continue;
      for (const [status, response] of Object.entries(responses)) {
        if (status !== '401') response.headers = { ...response.headers, [VERIFICATION_MODE_HEADER]: VERIFICATION_MODE };
      }
    }
  }
  return document;
}
