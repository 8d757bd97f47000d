import { PipeTransform } from '@nestjs/common';
import { isUuid } from './uuid';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-codes';

/**
 * A path id that is not a UUID names nothing, so it is answered as an unknown id, with the resource's
 * 404 code: `@Param('id', new ResourceIdPipe('BATCH_NOT_FOUND'))`. It also keeps PostgreSQL from being
 * asked to cast it.
 */
export class ResourceIdPipe implements PipeTransform<string, string> {
  constructor(private readonly notFound: ErrorCode) {}

  transform(value: string): string {
    if (!isUuid(value)) throw new ApiError(this.notFound);
    return value;
  }
}
