import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { NEWEST_FIRST_CURSOR_MAX_LENGTH, NewestFirstCursor, PageCursor, readNewestFirstCursor } from '../validation/paging';
import { REASON_MAX_LENGTH } from './operator-reason';
import { OPERATOR_ROLES, OperatorRole } from './operator-role';
import { DIRECTORY_SORTS, DirectorySort, readOffsetCursor } from './partner-standing';

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** Every form of a signed-in page: its CSRF token (the guard checks it). */
export class OperatorForm {
  @IsString()
  @MaxLength(100)
  _csrf!: string;
}

/** A change to a partner: why, in the operator's words (the operators' log keeps it). */
export class ReasonForm extends OperatorForm {
  @Transform(trimmed)
  @IsString()
  @Length(1, REASON_MAX_LENGTH, { message: `Give a reason of 1 to ${REASON_MAX_LENGTH} characters.` })
  reason!: string;
}

const WHOLE_NUMBER_OR_BLANK = 'Give a whole number, or leave it blank.';

/** A field of a whole number, or blank (null). */
const WholeNumberOrBlank = () =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => (value === '' ? null : typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value)),
    IsOptional(),
    IsInt({ message: WHOLE_NUMBER_OR_BLANK }),
    Min(0, { message: WHOLE_NUMBER_OR_BLANK }),
    Max(2_147_483_647, { message: WHOLE_NUMBER_OR_BLANK }),
  );

/** A quota or a limit: a whole number, or blank for unlimited (quota) or the default (limits). */
export class SettingForm extends ReasonForm {
  @WholeNumberOrBlank()
  value!: number | null;
}

/** A new partner: its name, its plan (blank: unlimited), and its first owner's address. */
export class NewPartnerForm extends ReasonForm {
  @Transform(trimmed)
  @IsString()
  @Length(1, 200, { message: 'Give the partner a name of 1 to 200 characters.' })
  name!: string;

  @WholeNumberOrBlank()
  quota!: number | null;

  @Transform(trimmed)
  @IsString()
  @MaxLength(254)
  ownerEmail!: string;
}

export class KeyForm extends ReasonForm {
  @Transform(trimmed)
  @IsString()
  @Length(1, 100, { message: 'Give the key a name of 1 to 100 characters.' })
  name!: string;
}

export class DeleteForm extends ReasonForm {
  @IsString()
  @MaxLength(300)
  confirmName!: string;
}

/** Another operator's new role, and why. */
export class OperatorRoleForm extends ReasonForm {
  @IsIn(OPERATOR_ROLES, { message: 'Choose operator or support.' })
  role!: OperatorRole;
}

/** The browser's answer to a passkey ceremony, as JSON (its contents are checked by the ceremony's verification). */
export class PasskeySignInForm extends OperatorForm {
  @IsString()
  @MaxLength(16_384)
  credential!: string;
}

/** A new passkey on Your account: its name (passkeyName checks it), and the browser's answer. */
export class PasskeyForm extends PasskeySignInForm {
  @IsString()
  @MaxLength(200)
  name!: string;
}

/** Single sign-on's first step: the operator's work address, whose domain OPERATOR_OIDC_DOMAINS must list. */
export class SsoStartForm extends OperatorForm {
  @Transform(trimmed)
  @IsString()
  @MaxLength(254)
  email!: string;
}

export class SignInForm extends OperatorForm {
  @IsString()
  @MaxLength(254)
  email!: string;

  @IsString()
  @MaxLength(300)
  password!: string;

  @Transform(trimmed)
  @IsString()
  @MaxLength(40)
  code!: string;
}

export class PasswordForm extends OperatorForm {
  @IsString()
  @MaxLength(300)
  password!: string;
}

export class CodeForm extends OperatorForm {
  @Transform(trimmed)
  @IsString()
  @Matches(/^\d{6}$/, { message: 'Give the six digits your app shows.' })
  code!: string;
}

/** The partner list's search, order and page. */
export class PartnersQuery {
  @IsOptional()
  @Transform(trimmed)
  @IsString()
  @MaxLength(100)
  q?: string;

  @IsOptional()
  @IsIn(DIRECTORY_SORTS)
  sort: DirectorySort = 'name';

  @PageCursor(readOffsetCursor, 40, 'This page link is not valid.')
  cursor?: number;
}

export class OperatorLogQuery {
  @PageCursor(readNewestFirstCursor, NEWEST_FIRST_CURSOR_MAX_LENGTH, 'This page link is not valid.')
  cursor?: NewestFirstCursor;
}
