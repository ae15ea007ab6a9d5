import { Column, Entity, Index } from 'typeorm';
import { CreatedAt, UuidPrimaryColumn } from '@storage/persistence';

export const API_KEY_SCOPES = ['read', 'write', 'admin'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
/** The scopes of a portfolio's keys; `admin` keys reach every portfolio (`api-keys create --admin`). */
export const PORTFOLIO_KEY_SCOPES = ['read', 'write'] as const satisfies readonly ApiKeyScope[];

/** Only the SHA-256 of a key is kept; the key itself is shown once, at creation. */
@Entity('api_keys')
export class ApiKey {
  @UuidPrimaryColumn() uuid!: string;
  @Index({ unique: true }) @Column('text') keyHash!: string;
  /** First characters, to tell keys apart in listings and logs. */
  @Column('text') keyPrefix!: string;
  @Column('text', { default: '' }) label!: string;
  /** `write` includes read; `admin` includes write and alone creates portfolios. */
  @Column('enum', { enum: API_KEY_SCOPES, enumName: 'api_key_scope' }) scope!: ApiKeyScope;
  /** The portfolios it reaches; null reaches all. */
  @Column('uuid', { array: true, nullable: true }) portfolioUuids!: string[] | null;
  @CreatedAt() createdAt!: Date;
  @Column('timestamptz', { nullable: true }) revokedAt!: Date | null;
}
