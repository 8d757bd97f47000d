import { applyDecorators } from '@nestjs/common';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { CreateKeyDto } from '../auth/dto/keys.dto';
import { CreateWebhookDto } from '../webhooks/dto/webhook.dto';
import { FEATURE_VALIDATION_MESSAGES } from '../errors/error-codes';
import { IDEMPOTENCY_KEY_PATTERN } from '../validation/idempotency-key';
import { IsReference } from '../validation/reference.decorator';
import { UnknownFieldMessage } from '../validation/request-dto.decorators';

const { consoleForm } = FEATURE_VALIDATION_MESSAGES;

/** A text field of a console form, up to `maxLength` characters. */
const FormText = (maxLength: number) => applyDecorators(MaxLength(maxLength, { message: consoleForm }), IsString({ message: consoleForm }));

/** The session's CSRF token. Optional here: a missing token is a forged request, answered 403 by ConsoleSessions, not a bad form. */
const CsrfToken = () => applyDecorators(IsOptional(), FormText(100));

/**
 * The console's forms. Each carries the session's CSRF token (checked by ConsoleSessions, which answers 403);
 * the fields' content rules are the API's own, from its DTOs and validation functions.
 */
@UnknownFieldMessage(consoleForm)
export class ConsoleForm {
  @CsrfToken()
  _csrf?: string;
}

@UnknownFieldMessage(consoleForm)
export class SignInForm extends ConsoleForm {
  @FormText(200)
  apiKey!: string;
}

/**
 * The licence number is checked by the page, which shows the error table's words next to the field. Names or a
 * date of birth make it a holder check, their content checked by verify-holder's own DTO (ConsoleService).
 */
@UnknownFieldMessage(consoleForm)
export class VerifyForm extends ConsoleForm {
  @FormText(100)
  licenceNumber!: string;

  @IsOptional()
  @FormText(100)
  firstName?: string;

  @IsOptional()
  @FormText(100)
  surname?: string;

  @IsOptional()
  @FormText(100)
  dateOfBirth?: string;

  /** the key of a PENDING answer, sent again to pick up the same lookup */
  @IsOptional()
  @Matches(IDEMPOTENCY_KEY_PATTERN, { message: consoleForm })
  idempotencyKey?: string;
}

@UnknownFieldMessage(consoleForm)
export class CreateKeyForm extends CreateKeyDto {
  @CsrfToken()
  _csrf?: string;
}

/** The licence number is checked by the page, as on Verify; the reference by the watchlist's own rule. */
@UnknownFieldMessage(consoleForm)
export class WatchForm extends ConsoleForm {
  @FormText(100)
  licenceNumber!: string;

  @IsReference(FEATURE_VALIDATION_MESSAGES.watchReference, 'Your own id for the number')
  reference?: string;
}

/** A new endpoint for every event type; its URL is checked by the API's own rules. */
@UnknownFieldMessage(consoleForm)
export class WebhookForm extends CreateWebhookDto {
  @CsrfToken()
  _csrf?: string;
}
