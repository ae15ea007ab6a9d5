import {
  applyDelinquencyTrigger,
  canApplyDelinquencyTrigger,
  DELINQUENCY_TRANSITIONS,
  DELINQUENCY_TRIGGERS,
  IllegalDelinquencyTransition,
  isPausableStatus,
  RENTAL_DELINQUENCY_STATUSES,
  STATUS_BEFORE_PAUSE,
  toEventStatus,
  type DelinquencyTransitionTarget,
  type DelinquencyTrigger,
  type PausableStatus,
  type RentalDelinquencyStatus,
} from '../../src';

const table: Record<RentalDelinquencyStatus, Partial<Record<DelinquencyTrigger, DelinquencyTransitionTarget>>> = DELINQUENCY_TRANSITIONS;
const pairs = RENTAL_DELINQUENCY_STATUSES.flatMap((from) => DELINQUENCY_TRIGGERS.map((trigger) => ({ from, trigger, target: table[from][trigger] })));
const allowed = pairs.filter((p) => p.target !== undefined);
const refused = pairs.filter((p) => p.target === undefined);
const PAUSABLE: PausableStatus[] = ['OVERDUE', 'OVERLOCK', 'LIEN', 'AUCTION'];

describe('delinquency transition table', () => {
  it('covers every status and trigger', () => {
    expect(pairs).toHaveLength(RENTAL_DELINQUENCY_STATUSES.length * DELINQUENCY_TRIGGERS.length);
    expect(allowed.length + refused.length).toBe(pairs.length);
  });

  it.each(allowed.map((p) => [p.from, p.trigger, p.target] as const))('%s on %s → %s', (from, trigger, target) => {
    expect(canApplyDelinquencyTrigger(from, trigger)).toBe(true);
    const pausedFrom = from === 'PAUSED' ? 'LIEN' : null;
    const next = applyDelinquencyTrigger({ status: from, pausedFrom }, trigger);
    expect(next.status).toBe(target === STATUS_BEFORE_PAUSE ? 'LIEN' : target);
    expect(next.pausedFrom).toBe(next.status === 'PAUSED' ? from : null);
  });

  it.each(refused.map((p) => [p.from, p.trigger] as const))('%s on %s is refused', (from, trigger) => {
    expect(canApplyDelinquencyTrigger(from, trigger)).toBe(false);
    const attempt = () => applyDelinquencyTrigger({ status: from, pausedFrom: from === 'PAUSED' ? 'OVERDUE' : null }, trigger);
    expect(attempt).toThrow(IllegalDelinquencyTransition);
    try {
      attempt();
    } catch (error) {
      expect(error).toMatchObject({ name: 'IllegalDelinquencyTransition', from, trigger });
    }
  });

  it('follows spec section 3', () => {
    expect(table.CURRENT.STAGE_ADVANCE).toBe('OVERDUE');
    expect(table.OVERDUE.STAGE_ADVANCE).toBe('OVERLOCK');
    expect(table.OVERLOCK.STAGE_ADVANCE).toBe('LIEN');
    expect(table.OVERDUE.PAYMENT_CLEARED).toBe('PAID');
    expect(table.OVERLOCK.PAYMENT_CLEARED).toBe('PAID');
  });

  it('follows ARCHITECTURE.md: LIEN → AUCTION, a cleared payment resolves LIEN and AUCTION, WRITTEN_OFF is terminal', () => {
    expect(table.LIEN.STAGE_ADVANCE).toBe('AUCTION');
    expect(table.LIEN.PAYMENT_CLEARED).toBe('PAID');
    expect(table.AUCTION.PAYMENT_CLEARED).toBe('PAID');
    expect(table.AUCTION.STAGE_ADVANCE).toBeUndefined();
    expect(Object.keys(table.WRITTEN_OFF)).toEqual([]);
  });

  it('a PAID rental starts over at OVERDUE when it falls behind again', () => {
    expect(applyDelinquencyTrigger({ status: 'PAID' }, 'STAGE_ADVANCE')).toEqual({ status: 'OVERDUE', pausedFrom: null });
  });

  it('pauses only the delinquent stages', () => {
    expect(RENTAL_DELINQUENCY_STATUSES.filter(isPausableStatus)).toEqual(PAUSABLE);
  });

  it.each(PAUSABLE)('PAUSE from %s remembers it and RESUME returns to it', (status) => {
    const paused = applyDelinquencyTrigger({ status }, 'PAUSE');
    expect(paused).toEqual({ status: 'PAUSED', pausedFrom: status });
    expect(applyDelinquencyTrigger(paused, 'RESUME')).toEqual({ status, pausedFrom: null });
  });

  it('refuses RESUME when the status before the pause is unknown', () => {
    expect(() => applyDelinquencyTrigger({ status: 'PAUSED' }, 'RESUME')).toThrow(/before the pause is unknown/);
    expect(() => applyDelinquencyTrigger({ status: 'PAUSED', pausedFrom: null }, 'RESUME')).toThrow(IllegalDelinquencyTransition);
  });

  it('events show not delinquent as null and every other status by its spec name', () => {
    expect(toEventStatus('CURRENT')).toBeNull();
    expect(toEventStatus('LIEN')).toBe('LIEN');
  });
});
