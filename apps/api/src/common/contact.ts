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
    { name: 'isEmailAddress', validator: { validate: (value) => typeof value === 'string' && isValidEmail(value), defaultMessage: () => '$property must be a valid email address' } },
    options,
  );

export const PHONE_PATTERN_DESCRIPTION = '`(NPA) NXX-XXXX`, `NPA-NXX-XXXX` or `NPANXXXXXX`';
