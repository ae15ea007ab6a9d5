import type { PortalQueries, Rates } from './portal-queries';

const WEEK_MS = 7 * 86_400_000;
/** How long an endpoint's 7-day rates are shown before they are read again. */
export const WEEK_RATES_TTL_MS = 60_000;
/** Endpoints whose rates are kept; beyond, the oldest reading goes first. */
const KEPT = 1_000;

/**
 * The 7-day rates of endpoints, read at most once a minute per endpoint on this replica: reading them aggregates a
 * week of attempts (about 50 ms for 100,000), the bulk of an endpoint page, while a chart of whole days barely
 * changes within a minute. The last 24 hours are read afresh on every page.
 */
export class WeekRates {
  private readonly kept = new Map<string, { readAt: number; rates: Promise<Rates> }>();

  constructor(private readonly queries: PortalQueries) {}

  of(endpointId: string, now: Date): Promise<Rates> {
    const kept = this.kept.get(endpointId);
    if (kept && now.getTime() - kept.readAt < WEEK_RATES_TTL_MS) return kept.rates;
    const rates = this.queries.rates(endpointId, new Date(now.getTime() - WEEK_MS), 'day', 7);
    // A failed read is not kept: the next page asks again.
    rates.catch(() => {
      if (this.kept.get(endpointId)?.rates === rates) this.kept.delete(endpointId);
    });
    this.kept.delete(endpointId);
    this.kept.set(endpointId, { readAt: now.getTime(), rates });
    if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value!);
    return rates;
  }
}
