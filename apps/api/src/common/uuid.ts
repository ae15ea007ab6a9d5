import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { InvalidRequestException } from '@storage/platform';
import { isUuid } from '@storage/domain';
import { ValidateBy, type ValidationOptions } from 'class-validator';

const UUID_MESSAGE = 'must be a UUID (8-4-4-4-12 hex)';
const NIL_UUID = '00000000-0000-0000-0000-000000000000';
const NIL_MESSAGE = 'must not be the nil UUID (all zeros), which names no record';

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

/**
 * The id a client chooses for a record to create: a UUID, but not the nil UUID. It stands for "none" (the
 * dispatcher's test events carry it as their tenant) and is what a client sends when it forgot to set an id (Go's
 * zero `uuid.UUID`, .NET's `Guid.Empty`): taken as an id, every such client would write to the same record.
 */
@Injectable()
export class RecordUuidPipe extends UuidPipe {
  override transform(value: unknown, metadata: ArgumentMetadata): string {
    const uuid = super.transform(value, metadata);
    const field = metadata.data ?? 'uuid';
    if (uuid === NIL_UUID) throw new InvalidRequestException([{ field, message: `${field} ${NIL_MESSAGE}` }]);
    return uuid;
  }
}

/** `RecordUuidPipe`'s rule for DTO fields: the uuid of a record to create (an import file's records). */
export function IsRecordUuid(options: ValidationOptions = {}): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isRecordUuid',
      validator: {
        validate: (value) => isUuid(value) && value !== NIL_UUID,
        defaultMessage: (args) => `$property ${isUuid(args?.value) ? NIL_MESSAGE : UUID_MESSAGE}`,
      },
    },
    options,
  );
}

export const lowerUuids = (uuids: readonly string[]): string[] => uuids.map((uuid) => uuid.toLowerCase());
