import type { PortalQueries, Rates } from '../src/portal/portal-queries';
import { WEEK_RATES_TTL_MS, WeekRates } from '../src/portal/week-rates';

describe('the 7-day rates of the endpoint page', () => {
  const reads: string[] = [];
  let failing = false;
  const queries = {
    rates: async (endpointId: string): Promise<Rates> => {
      reads.push(endpointId);
      if (failing) throw new Error('database gone');
      return { succeeded: reads.length, failed: 0, buckets: [] };
    },
  } as unknown as PortalQueries;
  const at = (ms: number) => new Date(1_700_000_000_000 + ms);

  beforeEach(() => {
    reads.length = 0;
    failing = false;
  });

  it('reads an endpoint once a minute, each endpoint apart', async () => {
    const week = new WeekRates(queries);
    expect((await week.of('a', at(0))).succeeded).toBe(1);
    expect((await week.of('a', at(WEEK_RATES_TTL_MS - 1))).succeeded).toBe(1);
    expect((await week.of('b', at(1))).succeeded).toBe(2);
    expect((await week.of('a', at(WEEK_RATES_TTL_MS))).succeeded).toBe(3);
    expect(reads).toEqual(['a', 'b', 'a']);
  });

  it('does not keep a failed read', async () => {
    const week = new WeekRates(queries);
    failing = true;
    await expect(week.of('a', at(0))).rejects.toThrow('database gone');
    failing = false;
    expect((await week.of('a', at(1))).succeeded).toBe(2);
  });
});
