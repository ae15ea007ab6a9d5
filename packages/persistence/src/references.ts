import { ForeignKey } from 'typeorm';

/**
 * The column is a foreign key to `parentTable`'s primary key, as migration ForeignKeys made it: named by
 * PostgreSQL's convention (the naming strategy), DEFERRABLE INITIALLY IMMEDIATE so a transaction writing a whole
 * tree may defer it. The parent is named by table, so an entity can refer to a table another workspace owns.
 */
export const References = (parentTable: string, onDelete: 'CASCADE' | 'NO ACTION'): PropertyDecorator =>
  ForeignKey(parentTable, { onDelete, deferrable: 'INITIALLY IMMEDIATE' });
