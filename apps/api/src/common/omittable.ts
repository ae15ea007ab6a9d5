import { ValidateIf } from 'class-validator';

/**
 * A field a PATCH may leave out, but not set to null: absent keeps the current value, and null is validated (and
 * refused) like any other value. `@IsOptional()` would let null through as if absent, or into the code as null.
 */
export const IsOmittable = (): PropertyDecorator => ValidateIf((_object, value) => value !== undefined);
