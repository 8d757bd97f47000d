import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { ApiError } from '../errors/api-error';
import { VALIDATION_MESSAGES } from '../errors/error-codes';
import { RejectedBody } from './decode-request-body';
import { hasUndeclaredFields } from './undeclared-fields';

function messageFor(errors: ValidationError[]): (typeof VALIDATION_MESSAGES)[keyof typeof VALIDATION_MESSAGES] {
  if (errors.some((error) => error.property === 'licenceNumber')) return VALIDATION_MESSAGES.licenceNumber;
  if (errors.some((error) => error.constraints?.whitelistValidation)) return VALIDATION_MESSAGES.unknownField;
  return VALIDATION_MESSAGES.notJson;
}

// Per DTO class, read once: the metadata lookup scans every decorated class, and it ran on every request.
const declaredFieldsByDto = new WeakMap<NonNullable<ArgumentMetadata['metatype']>, ReadonlySet<string>>();

/** The fields a DTO class declares through class-validator decorators (what whitelisting allows). */
function declaredFields(dto: ArgumentMetadata['metatype']): ReadonlySet<string> {
  if (!dto) return new Set();
  let fields = declaredFieldsByDto.get(dto);
  if (!fields) {
    fields = new Set(getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false).map((entry) => entry.propertyName));
    declaredFieldsByDto.set(dto, fields);
  }
  return fields;
}

/** Validates DTOs strictly (no unknown fields, no type coercion) and fails with the contract's 400. */
@Injectable()
export class ContractValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => ApiError.validation(messageFor(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (value instanceof RejectedBody) throw ApiError.validation(value.reason);
    if (metadata.type === 'body') {
      if (value === undefined || value === null) throw ApiError.validation(VALIDATION_MESSAGES.notJson);
      // Only a DTO class is checked field by field; a route that reads its body itself takes it as it is.
      if (this.toValidate(metadata) && hasUndeclaredFields(value as object, declaredFields(metadata.metatype))) {
        throw ApiError.validation(VALIDATION_MESSAGES.unknownField);
      }
    }
    return super.transform(value, metadata);
  }
}
