import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { InvalidRequestException } from '@storage/platform';
import { isUuid } from '@storage/domain';
import { ValidateBy, type ValidationOptions } from 'class-validator';

const UUID_MESSAGE = 'must be a UUID (8-4-4-4-12 hex)';

/** Path parameters that must be UUIDs: 400 naming the parameter, lower-cased for look-ups. */
@Injectable()
export class UuidPipe implements PipeTransform<unknown, string> {
  transform(value: unknown, metadata: ArgumentMetadata): string {
    const field = metadata.data ?? 'uuid';
    if (!isUuid(value)) throw new InvalidRequestException([{ field, message: `${field} ${UUID_MESSAGE}` }]);
    return value.toLowerCase();
  }
}

/**
 * The domain's UUID rule for DTO fields (any version, so the private coverage constant passes), where
 * class-validator's IsUUID would depend on its version's idea of "all".
 */
export function IsUuidString(options: ValidationOptions = {}): PropertyDecorator {
  return ValidateBy({ name: 'isUuidString', validator: { validate: (value) => isUuid(value), defaultMessage: () => `$property ${UUID_MESSAGE}` } }, options);
}

export const lowerUuids = (uuids: readonly string[]): string[] => uuids.map((uuid) => uuid.toLowerCase());
