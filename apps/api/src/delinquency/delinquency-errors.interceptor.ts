import { ConflictException, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { catchError, type Observable } from 'rxjs';
import { IllegalDelinquencyTransition } from '@storage/domain';
import { DelinquencyConflict, InvalidDelinquencyInput, RentalNotFound } from '@storage/delinquency';
import { InvalidRequestException } from '@storage/platform';
import { notFound } from '../common';

/** The delinquency package's errors as problems: 404 unknown rental, 409 refused transition or state, 400 bad value. */
@Injectable()
export class DelinquencyErrorsInterceptor implements NestInterceptor {
  intercept(_: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      catchError((error: unknown) => {
        throw translate(error);
      }),
    );
  }
}

function translate(error: unknown): unknown {
  if (error instanceof RentalNotFound) return notFound('Rental record', error.rentalRecordUuid);
  if (error instanceof IllegalDelinquencyTransition || error instanceof DelinquencyConflict) return new ConflictException(error.message);
  if (error instanceof InvalidDelinquencyInput) return new InvalidRequestException([{ field: error.field, message: error.message }]);
  return error;
}
