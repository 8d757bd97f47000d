import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Matches, MaxLength, ValidateBy } from 'class-validator';
import { ActivityQuery } from '../auth/dto/activity.dto';
import { CreateKeyDto } from '../auth/dto/keys.dto';
import { KEY_MODES, KeyMode } from '../auth/key-mode';
import { MEMBER_ROLES, MemberRole } from '../members/member-role';
import { MAX_PASSWORD_LENGTH } from '../people/password-policy';
import { CreateWebhookDto, UpdateWebhookDto } from '../webhooks/dto/webhook.dto';
import { FEATURE_VALIDATION_MESSAGES } from '../errors/error-codes';
import { IDEMPOTENCY_KEY_PATTERN } from '../validation/idempotency-key';
import { IsReference } from '../validation/reference.decorator';
import { IsDateOfBirth, IsHolderName } from '../validation/holder-fields.decorator';
import { IsLicenceNumber } from '../validation/licence-number.decorator';
import { UnknownFieldMessage } from '../validation/request-dto.decorators';
import { VerificationsQuery } from '../verification-records/dto/verifications-query.dto';

const { consoleForm, firstName, surname, dateOfBirth } = FEATURE_VALIDATION_MESSAGES;

/** A text field of a console form, up to `maxLength` characters. */
const FormText = (maxLength: number) => applyDecorators(MaxLength(maxLength, { message: consoleForm }), IsString({ message: consoleForm }));

/** FormText for a field that may be absent, leaving whether it is required to the field's content rule. */
const PresentFormText = (maxLength: number) =>
  ValidateBy(
    { name: 'presentFormText', validator: { validate: (value) => value === undefined || (typeof value === 'string' && value.length <= maxLength) } },
    { message: consoleForm },
  );

/** A text field as typed, without the spaces around it (anything but text is left for the rules to refuse). */
const Trimmed = () => Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

/** Trimmed, and absent when blank: a form sends its empty fields too. */
const TrimmedOrAbsent = () => Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() || undefined : value));

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

/** The sign-in form: a member's e-mail address and password, or (where CONSOLE_KEY_SIGN_IN allows) an API key. */
@UnknownFieldMessage(consoleForm)
export class SignInForm extends ConsoleForm {
  @IsOptional()
  @FormText(200)
  apiKey?: string;

  @IsOptional()
  @Trimmed()
  @FormText(254)
  email?: string;

  @IsOptional()
  @FormText(MAX_PASSWORD_LENGTH * 4)
  password?: string;
}

/** The most a passkey's answer takes as JSON: a few hundred bytes of keys and signatures, base64url, with room to spare. */
const MAX_CREDENTIAL_JSON = 16_384;

/** A sign-in with a passkey: the browser's answer, as JSON, which the page's script puts in the form. */
@UnknownFieldMessage(consoleForm)
export class PasskeySignInForm extends ConsoleForm {
  @FormText(MAX_CREDENTIAL_JSON)
  credential!: string;
}

/** A new passkey on Your account: its name, and the browser's answer as JSON. */
@UnknownFieldMessage(consoleForm)
export class PasskeyForm extends PasskeySignInForm {
  @FormText(200)
  name!: string;
}

/** Forgot your password?: the address to send a reset link to (the reply is the same for any). */
@UnknownFieldMessage(consoleForm)
export class PasswordResetRequestForm extends ConsoleForm {
  @Trimmed()
  @FormText(254)
  email!: string;
}

/** A reset link's form: the new password (the password policy is the reset's). */
@UnknownFieldMessage(consoleForm)
export class PasswordResetForm extends ConsoleForm {
  @FormText(MAX_PASSWORD_LENGTH * 4)
  password!: string;
}

/** A second factor's code: six digits from the app, or a recovery code. */
@UnknownFieldMessage(consoleForm)
export class CodeForm extends ConsoleForm {
  @Trimmed()
  @FormText(40)
  code!: string;
}

/** An invitation's first form: the person's name and password (the password policy is the members service's). */
@UnknownFieldMessage(consoleForm)
export class JoinForm extends ConsoleForm {
  @FormText(200)
  displayName!: string;

  @FormText(MAX_PASSWORD_LENGTH * 4)
  password!: string;
}

@UnknownFieldMessage(consoleForm)
export class InviteForm extends ConsoleForm {
  @Trimmed()
  @FormText(254)
  email!: string;

  @IsIn(MEMBER_ROLES, { message: consoleForm })
  role!: MemberRole;
}

/** The sign-in page's single sign-on: the work address whose domain finds the organisation. */
@UnknownFieldMessage(consoleForm)
export class SsoStartForm extends ConsoleForm {
  @Trimmed()
  @FormText(254)
  email!: string;
}

/** The Single sign-on page: the provider, the client (a blank secret keeps the one set), the domains, the role, and whether it is required. */
@UnknownFieldMessage(consoleForm)
export class SsoSettingsForm extends ConsoleForm {
  @Trimmed()
  @FormText(500)
  issuer!: string;

  @Trimmed()
  @FormText(255)
  clientId!: string;

  @FormText(500)
  clientSecret!: string;

  @FormText(2000)
  domains!: string;

  /** Any role here; owner is refused on the page (MemberSso), in words. */
  @IsIn(MEMBER_ROLES, { message: consoleForm })
  newMemberRole!: MemberRole;

  @IsOptional()
  @IsIn(['on'], { message: consoleForm })
  required?: 'on';
}

@UnknownFieldMessage(consoleForm)
export class RoleForm extends ConsoleForm {
  @IsIn(MEMBER_ROLES, { message: consoleForm })
  role!: MemberRole;
}

@UnknownFieldMessage(consoleForm)
export class PasswordChangeForm extends ConsoleForm {
  @FormText(MAX_PASSWORD_LENGTH * 4)
  currentPassword!: string;

  @FormText(MAX_PASSWORD_LENGTH * 4)
  newPassword!: string;
}

/** Whether the Verify form asks for a holder check: any of the holder's fields filled in. */
const holderAsked = (form: object) => {
  const { firstName, surname, dateOfBirth } = form as VerifyForm;
  return firstName !== undefined || surname !== undefined || dateOfBirth !== undefined;
};

/**
 * Verify's form. Its own refusals (an unknown field, text over 100 characters) are a bad form; the content's are the
 * API's, shown on the page (`@ShowsRefusal`): the number by the error table's rule, and, once any of the holder's
 * fields is filled in, the names and date by verify-holder's. Fields are trimmed, and a blank holder field is absent.
 */
@UnknownFieldMessage(consoleForm)
export class VerifyForm extends ConsoleForm {
  @Trimmed()
  @IsLicenceNumber()
  @FormText(100)
  licenceNumber!: string;

  @TrimmedOrAbsent()
  @IsHolderName(firstName, { example: 'Olivia', description: 'First name', requiredWhen: holderAsked })
  @PresentFormText(100)
  firstName?: string;

  @TrimmedOrAbsent()
  @IsHolderName(surname, { example: 'Hughes', description: 'Surname', requiredWhen: holderAsked })
  @PresentFormText(100)
  surname?: string;

  @TrimmedOrAbsent()
  @IsDateOfBirth(dateOfBirth, 'YYYY-MM-DD')
  @PresentFormText(100)
  dateOfBirth?: string;

  /** the key of a PENDING answer, sent again to pick up the same lookup */
  @IsOptional()
  @Matches(IDEMPOTENCY_KEY_PATTERN, { message: consoleForm })
  idempotencyKey?: string;
}

/** The Test mode switch in the console's header: the side of the account to work on. */
@UnknownFieldMessage(consoleForm)
export class SideSwitchForm extends ConsoleForm {
  @IsIn(KEY_MODES, { message: consoleForm })
  mode!: KeyMode;
}

@UnknownFieldMessage(consoleForm)
export class CreateKeyForm extends CreateKeyDto {
  @CsrfToken()
  _csrf?: string;
}

/** The licence number is checked by the page, which shows the error table's words; the reference by the watchlist's own rule. */
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

/** An endpoint's new URL, as PATCH /v1/webhooks/{id} takes it (its event types stay); checked by the API's own rules. */
@UnknownFieldMessage(consoleForm)
export class WebhookUrlForm extends UpdateWebhookDto {
  @CsrfToken()
  _csrf?: string;
}

/**
 * A blank field is as if not sent: its query's default (`absent`, the query as it stands when nothing is sent). Read
 * from the raw field, since the API's own transforms (the cursor's, the limit's) run first.
 */
const BlankIsAbsent = (absent: object) =>
  Transform(({ obj, key, value }: { obj: Record<string, unknown>; key: string; value: unknown }) =>
    obj[key] === '' ? (absent as Record<string, unknown>)[key] : value,
  );
const HISTORY_ABSENT = new VerificationsQuery();
const ACTIVITY_ABSENT = new ActivityQuery();

/**
 * The History page's filters: GET /v1/verifications's query, with its rules and its words. The page's GET form
 * sends its empty fields too, which filter nothing.
 */
export class HistoryQuery extends VerificationsQuery {
  @BlankIsAbsent(HISTORY_ABSENT) declare limit: number;
  @BlankIsAbsent(HISTORY_ABSENT) declare cursor?: VerificationsQuery['cursor'];
  @BlankIsAbsent(HISTORY_ABSENT) declare licenceNumber?: string;
  @BlankIsAbsent(HISTORY_ABSENT) declare from?: string;
  @BlankIsAbsent(HISTORY_ABSENT) declare to?: string;
  @BlankIsAbsent(HISTORY_ABSENT) declare status?: string;
  @BlankIsAbsent(HISTORY_ABSENT) declare channel?: string;
  @BlankIsAbsent(HISTORY_ABSENT) declare memberId?: string;
}

/** The Activity page's filters: GET /v1/activity's query, with its rules and its words; blank fields filter nothing. */
export class ActivityPageQuery extends ActivityQuery {
  @BlankIsAbsent(ACTIVITY_ABSENT) declare limit: number;
  @BlankIsAbsent(ACTIVITY_ABSENT) declare cursor?: ActivityQuery['cursor'];
  @BlankIsAbsent(ACTIVITY_ABSENT) declare action?: ActivityQuery['action'];
  @BlankIsAbsent(ACTIVITY_ABSENT) declare actorType?: ActivityQuery['actorType'];
  @BlankIsAbsent(ACTIVITY_ABSENT) declare actorId?: string;
  @BlankIsAbsent(ACTIVITY_ABSENT) declare from?: string;
  @BlankIsAbsent(ACTIVITY_ABSENT) declare to?: string;
}
