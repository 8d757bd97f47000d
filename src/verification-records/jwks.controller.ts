import { applyDecorators, Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { ReceiptJwk } from './receipt-keys';
import { ApiErrorResponses } from '../http/api-error-responses';
import { ReceiptSigner } from './receipt-signer';

class ReceiptJwkDto implements ReceiptJwk {
  @ApiProperty({ enum: ['OKP'] })
  kty!: 'OKP';

  @ApiProperty({ enum: ['Ed25519'] })
  crv!: 'Ed25519';

  @ApiProperty({ description: 'The public key, base64url', pattern: '^[A-Za-z0-9_-]{43}$' })
  x!: string;

  @ApiProperty({ description: "The key's RFC 7638 JWK thumbprint, as receipts name it in their kid", pattern: '^[A-Za-z0-9_-]{43}$' })
  kid!: string;

  @ApiProperty({ enum: ['sig'] })
  use!: 'sig';

  @ApiProperty({ enum: ['EdDSA'] })
  alg!: 'EdDSA';
}

class JwksDto {
  @ApiProperty({ type: [ReceiptJwkDto], minItems: 1, description: 'The key signing receipts now first, then every earlier one' })
  keys!: ReceiptJwkDto[];
}

/** One published key set: open to anyone, cached for five minutes, documented as a JWKS. */
function ApiKeySet(operationId: string, summary: string, description: string): MethodDecorator {
  return applyDecorators(
    Header('Cache-Control', 'public, max-age=300'),
    ApiOperation({ operationId, summary, description, security: [] }),
    ApiOkResponse({ type: JwksDto, description: 'The key set' }),
    ApiErrorResponses('HEADERS_TOO_LARGE', 'INTERNAL_ERROR'),
  );
}

/** The receipts' public keys (RFC 7517), for anyone: no API key needed; live and test keys apart. */
@ApiTags('verifications')
@Controller('.well-known')
export class JwksController {
  constructor(private readonly signer: ReceiptSigner) {}

  @Get('jwks.json')
  @ApiKeySet(
    'getReceiptKeys',
    'The public keys that verify live receipts (JWKS)',
    'Needs no API key. Every key that ever signed a receipt stays listed while it is configured. Test keys are never listed here.',
  )
  jwks(): JwksDto {
    return this.signer.jwks('live');
  }

  @Get('jwks-test.json')
  @ApiKeySet(
    'getTestReceiptKeys',
    'The public keys that verify test-mode receipts (JWKS)',
    "Needs no API key. A test key's answers are simulated, so their receipts have keys of their own, listed only here.",
  )
  testJwks(): JwksDto {
    return this.signer.jwks('test');
  }
}
