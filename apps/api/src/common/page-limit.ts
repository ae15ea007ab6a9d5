import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, ValidateBy } from 'class-validator';

export interface PageLimit {
  default: number;
  max: number;
}

/** A whole number from 1 to `max`, written in decimal without sign, point or leading zero. */
function isWholeNumberUpTo(value: unknown, max: number): boolean {
  return typeof value === 'string' && /^[1-9][0-9]{0,8}$/.test(value) && Number(value) <= max;
}

/**
 * The `limit` query parameter of a paged list. The document declares it an integer from 1 to the maximum, which is
 * what generated clients type it as; the query string arrives as text, so the validator accepts exactly the decimal
 * writings of those integers.
 */
export function IsPageLimit(items: string, limit: PageLimit): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum: 1,
      maximum: limit.max,
      description: `${items} per page, 1 to ${limit.max} (default ${limit.default}).`,
    }),
    IsOptional(),
    ValidateBy({
      name: 'isPageLimit',
      validator: {
        validate: (value) => isWholeNumberUpTo(value, limit.max),
        defaultMessage: () => `limit must be a whole number from 1 to ${limit.max}`,
      },
    }),
  );
}
