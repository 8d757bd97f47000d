import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { CreateKeyDto } from '../auth/dto/keys.dto';
import { CreateWebhookDto } from '../webhooks/dto/webhook.dto';
import { FEATURE_VALIDATION_MESSAGES } from '../errors/error-codes';
import { IsReference } from '../validation/reference.decorator';
import { UnknownFieldMessage } from '../validation/request-dto.decorators';

const { consoleForm } = FEATURE_VALIDATION_MESSAGES;

/**
 * The console's forms. Each carries the session's CSRF token (checked by ConsoleSessions, which answers 403);
 * the fields' content rules are the API's own, from its DTOs and validation functions.
 */
@UnknownFieldMessage(consoleForm)
export class ConsoleForm {
  // Optional here: a missing token is a forged request, answered 403 by ConsoleSessions, not a bad form.
  @IsOptional()
  @MaxLength(100, { message: consoleForm })
  @IsString({ message: consoleForm })
  _csrf?: string;
}

@UnknownFieldMessage(consoleForm)
export class SignInForm extends ConsoleForm {
  @MaxLength(200, { message: consoleForm })
  @IsString({ message: consoleForm })
  apiKey!: string;
}

/** The licence number is checked by the page, which shows the error table's words next to the field. */
@UnknownFieldMessage(consoleForm)
export class VerifyForm extends ConsoleForm {
  @MaxLength(100, { message: consoleForm })
  @IsString({ message: consoleForm })
  licenceNumber!: string;

  /** the key of a PENDING answer, sent again to pick up the same lookup */
  @IsOptional()
  @Matches(/^[\x21-\x7e]{1,255}$/, { message: consoleForm })
  idempotencyKey?: string;
}

@UnknownFieldMessage(consoleForm)
export class CreateKeyForm extends CreateKeyDto {
  @IsOptional()
  @MaxLength(100, { message: consoleForm })
  @IsString({ message: consoleForm })
  _csrf?: string;
}

/** The licence number is checked by the page, as on Verify; the reference by the watchlist's own rule. */
@UnknownFieldMessage(consoleForm)
export class WatchForm extends ConsoleForm {
  @MaxLength(100, { message: consoleForm })
  @IsString({ message: consoleForm })
  licenceNumber!: string;

  @IsReference(FEATURE_VALIDATION_MESSAGES.watchReference, 'Your own id for the number')
  reference?: string;
}

/** A new endpoint for every event type; its URL is checked by the API's own rules. */
@UnknownFieldMessage(consoleForm)
export class WebhookForm extends CreateWebhookDto {
  @IsOptional()
  @MaxLength(100, { message: consoleForm })
  @IsString({ message: consoleForm })
  _csrf?: string;
}
