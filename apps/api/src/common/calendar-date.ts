import { isCalendarDate } from '@storage/domain';
import { ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';

/** A real `YYYY-MM-DD` day, by the domain's rule. */
@ValidatorConstraint({ name: 'isCalendarDate' })
export class IsCalendarDateString implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return isCalendarDate(value);
  }

  defaultMessage(): string {
    return '$property must be a date as YYYY-MM-DD';
  }
}
