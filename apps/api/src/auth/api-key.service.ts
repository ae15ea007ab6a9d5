import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ApiKeyScope } from '../model/api-key.entity';
import { hashApiKey } from './api-key';
import { query, sql } from '@storage/persistence';

/** Who is calling: an API key with its scope and the portfolios it reaches (null: all). */
export interface ApiKeyPrincipal {
  apiKeyUuid: string;
  scope: ApiKeyScope;
  portfolioUuids: readonly string[] | null;
}

export interface PortfolioRef {
  uuid: string;
  portfolioId: string;
  name: string;
}

// Keys and portfolios are read on every request; a short cache keeps that off the database while a
// revoked key or a new portfolio still takes effect within seconds.
const CACHE_TTL_MS = 10_000;
const CACHE_MAX_ENTRIES = 10_000;

class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  delete(key: string): void {
    this.entries.delete(key);
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt < Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V): void {
    if (this.entries.size >= CACHE_MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { value, expiresAt: Date.now() + CACHE_TTL_MS });
  }
}

@Injectable()
export class ApiKeyService {
  private readonly principals = new TtlCache<ApiKeyPrincipal>();
  private readonly portfolios = new TtlCache<PortfolioRef | null>();

  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** The key's principal, or null when the key is unknown or revoked. */
  async authenticate(key: string): Promise<ApiKeyPrincipal | null> {
    const hash = hashApiKey(key);
    const cached = this.principals.get(hash);
    if (cached) return cached;
    const rows = await query(
      this.dataSource,
      sql<{ uuid: string; scope: ApiKeyScope; portfolio_uuids: string[] | null }, [string]>(
        'SELECT uuid, scope, portfolio_uuids FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      ),
      [hash],
    );
    const row = rows[0];
    if (row === undefined) return null;
    const principal = { apiKeyUuid: row.uuid, scope: row.scope, portfolioUuids: row.portfolio_uuids };
    this.principals.set(hash, principal);
    return principal;
  }

  /** The portfolio named `portfolioId` when the principal may reach it; null when absent or out of reach alike. */
  async reachablePortfolio(principal: ApiKeyPrincipal, portfolioId: string): Promise<PortfolioRef | null> {
    let portfolio = this.portfolios.get(portfolioId);
    if (portfolio === undefined) {
      const rows = await query(
        this.dataSource,
        sql<PortfolioRef, [string]>('SELECT uuid, portfolio_id AS "portfolioId", name FROM portfolios WHERE portfolio_id = $1'),
        [portfolioId],
      );
      portfolio = rows[0] ?? null;
      this.portfolios.set(portfolioId, portfolio);
    }
    if (portfolio === null) return null;
    return canReach(principal, portfolio.uuid) ? portfolio : null;
  }

  /** A portfolio just created or renamed is seen at once by this replica (others within the cache's 10 s). */
  forgetPortfolio(portfolioId: string): void {
    this.portfolios.delete(portfolioId);
  }

  /** Every portfolio the principal reaches, by portfolioId. */
  async reachablePortfolios(principal: ApiKeyPrincipal): Promise<PortfolioRef[]> {
    const rows = await query(
      this.dataSource,
      sql<PortfolioRef, [readonly string[] | null]>(
        'SELECT uuid, portfolio_id AS "portfolioId", name FROM portfolios WHERE $1::uuid[] IS NULL OR uuid = ANY($1::uuid[]) ORDER BY portfolio_id',
      ),
      [principal.portfolioUuids],
    );
    return rows;
  }
}

export function canReach(principal: ApiKeyPrincipal, portfolioUuid: string): boolean {
  return principal.portfolioUuids === null || principal.portfolioUuids.includes(portfolioUuid);
}
