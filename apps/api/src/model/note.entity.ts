import { Column, Entity, Index } from 'typeorm';
import { CreatedAt, References, UuidPrimaryColumn } from '@storage/persistence';

export const NOTE_TEXT_MAX_LENGTH = 1500;

@Entity('notes')
export class Note {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @References('leads', 'CASCADE') @Column('uuid') leadUuid!: string;
  @Column('varchar', { length: NOTE_TEXT_MAX_LENGTH }) noteText!: string;
  @CreatedAt() createdAt!: Date;
}
