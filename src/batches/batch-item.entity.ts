import type { RegisterLicence } from '@lvs/register';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { HolderCheck } from '../holders/holder-check';

export type BatchItemStatus = 'FOUND' | 'NOT_FOUND' | 'TOO_MANY_RESULTS' | 'PENDING' | 'ERROR';

/** One row of a batch and its result, written as its lookup finishes. */
@Entity({ name: 'batch_items' })
export class BatchItem {
  @PrimaryColumn({ name: 'batch_id', type: 'uuid' })
  batchId!: string;

  /** position in the request, from 1 */
  @PrimaryColumn({ type: 'integer' })
  index!: number;

  @Column({ name: 'licence_number', type: 'char', length: 16 })
  licenceNumber!: string;

  @Column({ type: 'text', nullable: true })
  reference!: string | null;

  @Column({ type: 'text' })
  status!: BatchItemStatus;

  /** SERVICE_UNAVAILABLE or PARSE_ERROR (INTERNAL_ERROR for our own faults) when status is ERROR */
  @Column({ name: 'error_code', type: 'text', nullable: true })
  errorCode!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  licence!: RegisterLicence | null;

  @Column({ name: 'checked_at', type: 'timestamptz', nullable: true })
  checkedAt!: Date | null;

  /** the lookup job the item waits on while PENDING */
  @Column({ name: 'job_id', type: 'text', nullable: true })
  jobId!: string | null;

  /** the holder the row names, {firstName, surname}; null when it names none */
  @Column({ type: 'jsonb', nullable: true })
  holder!: { firstName: string; surname: string } | null;

  /** the row's date of birth, sealed under the first key of HOLDER_DATA_KEYS and bound to its row; never stored in clear */
  @Column({ name: 'date_of_birth_sealed', type: 'text', nullable: true })
  dateOfBirthSealed!: string | null;

  @Column({ name: 'holder_check', type: 'jsonb', nullable: true })
  holderCheck!: HolderCheck | null;

  /** the name search the holder check waits on */
  @Column({ name: 'holder_job_id', type: 'text', nullable: true })
  holderJobId!: string | null;
}
