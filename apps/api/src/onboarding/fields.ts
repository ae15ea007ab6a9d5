import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsNotEmpty, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsOmittable } from '../common';

/**
 * Rates, prices and promotion amounts: at most $100,000 a month, so that a rate plan's adjustment or a
 * promotion's months multiplied by it still fit the integer columns they end up in.
 */
export const MAX_RATE_IN_PENNIES = 10_000_000;
/** An integer column's largest value (coverage amounts are stored, never multiplied). */
export const MAX_PENNIES = 2_147_483_647;

/** A required free-text field of 1 to `max` characters. */
export const Text = (max: number, description?: string): PropertyDecorator =>
  applyDecorators(ApiProperty({ minLength: 1, maxLength: max, description }), IsString(), IsNotEmpty(), MaxLength(max));

/** The validation of a whole number in a range, for fields documented on their own (optional ones). */
export const IntIn = (min: number, max: number): PropertyDecorator => applyDecorators(IsInt(), Min(min), Max(max));

/** Required integer pennies from 0 to `max`. */
export const Pennies = (max = MAX_RATE_IN_PENNIES, description?: string): PropertyDecorator =>
  applyDecorators(ApiProperty({ type: 'integer', minimum: 0, maximum: max, description }), IntIn(0, max));

/** A required whole number in a range. */
export const Count = (min: number, max: number, description?: string): PropertyDecorator =>
  applyDecorators(ApiProperty({ type: 'integer', minimum: min, maximum: max, description }), IntIn(min, max));

/** A flag a PUT may leave out (absent is `fallback`), but not set to null. */
export const Flag = (fallback: boolean, description?: string): PropertyDecorator =>
  applyDecorators(ApiPropertyOptional({ type: Boolean, default: fallback, description }), IsOmittable(), IsBoolean());
