import type { RegisterLicence } from '@lvs/register';
import type { FinalResult, FinalStatus } from '../lookups/lookup-outcome';

export type VerificationStatus = FinalStatus | 'PENDING';

export interface VerificationBody {
  status: VerificationStatus;
  message: string;
  licence: RegisterLicence | null;
  checkedAt: string | null;
  /** the answer's verification record; final answers only */
  verificationId?: string;
}

const STATUS_MESSAGES: Record<VerificationStatus, string> = {
  FOUND: 'Licence found',
  NOT_FOUND: 'No licence matches the number',
  TOO_MANY_RESULTS: 'Several licences match the number; the register data needs checking',
  PENDING: 'Verification is still in progress; retry with the same Idempotency-Key',
};

const HTTP_STATUS: Record<VerificationStatus, number> = {
  FOUND: 200,
  NOT_FOUND: 404,
  TOO_MANY_RESULTS: 409,
  PENDING: 202,
};

/** The one place that maps a verification to its HTTP status and body; a final answer carries its record's id. */
export function verificationAnswer(result: FinalResult | 'PENDING', verificationId?: string | null): { httpStatus: number; body: VerificationBody } {
  if (result === 'PENDING') {
    return {
      httpStatus: HTTP_STATUS.PENDING,
      body: { status: 'PENDING', message: STATUS_MESSAGES.PENDING, licence: null, checkedAt: null },
    };
  }
  return {
    httpStatus: HTTP_STATUS[result.status],
    body: {
      status: result.status,
      message: STATUS_MESSAGES[result.status],
      licence: result.status === 'FOUND' ? result.licence : null,
      checkedAt: result.checkedAt,
      ...(verificationId ? { verificationId } : {}),
    },
  };
}
