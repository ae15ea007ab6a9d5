import { CreateDateColumn, PrimaryColumn, UpdateDateColumn, type ColumnOptions } from 'typeorm';

/** Primary keys are UUIDs the database can generate, so bulk seeds in SQL need no client-side ids. */
export const UuidPrimaryColumn = (): PropertyDecorator => PrimaryColumn('uuid', { default: () => 'gen_random_uuid()' });

export const CreatedAt = (): PropertyDecorator => CreateDateColumn({ type: 'timestamptz' });
export const UpdatedAt = (): PropertyDecorator => UpdateDateColumn({ type: 'timestamptz' });

/** Money in integer pennies. */
export const pennies = (options: ColumnOptions = {}): ColumnOptions => ({ type: 'integer', ...options });
