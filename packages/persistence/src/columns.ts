// The column kinds every workspace's entities share, so a uuid key, a timestamp or money is declared one way.
import { CreateDateColumn, PrimaryGeneratedColumn, UpdateDateColumn, type ColumnOptions } from 'typeorm';

/** Primary keys are UUIDs the database generates (gen_random_uuid()) when not given, so bulk seeds in SQL need no client-side ids. */
export const UuidPrimaryColumn = (): PropertyDecorator => PrimaryGeneratedColumn('uuid');

export const CreatedAt = (): PropertyDecorator => CreateDateColumn({ type: 'timestamptz' });
export const UpdatedAt = (): PropertyDecorator => UpdateDateColumn({ type: 'timestamptz' });

/** Money in integer pennies. */
export const pennies = (options: ColumnOptions = {}): ColumnOptions => ({ type: 'integer', ...options });
