import { isValidEmail, isValidPhone } from '@storage/domain';
import { ValidateBy, type ValidationOptions } from 'class-validator';

/** One of the three phone formats of spec 4.6, by the domain's rule. */
export const IsPhone = (options: ValidationOptions = {}): PropertyDecorator =>
  ValidateBy(
    {
      name: 'isPhone',
      validator: {
        validate: (value) => typeof value === 'string' && isValidPhone(value),
        defaultMessage: () => '$property must be in the format (NPA) NXX-XXXX, NPA-NXX-XXXX or NPANXXXXXX',
      },
    },
    options,
  );

export const IsEmailAddress = (options: ValidationOptions = {}): PropertyDecorator =>
  ValidateBy(
    {
      name: 'isEmailAddress',
      validator: { validate: (value) => typeof value === 'string' && isValidEmail(value), defaultMessage: () => '$property must be a valid email address' },
    },
    options,
  );

export const PHONE_PATTERN_DESCRIPTION = '`(NPA) NXX-XXXX`, `NPA-NXX-XXXX` or `NPANXXXXXX`';
/** The three formats of `isValidPhone` as one pattern, for the document (area code and exchange start with 2-9). */
export const PHONE_PATTERN = '^(?:\\([2-9][0-9]{2}\\) [2-9][0-9]{2}-[0-9]{4}|[2-9][0-9]{2}-[2-9][0-9]{2}-[0-9]{4}|[2-9][0-9]{2}[2-9][0-9]{6})$';
