import fc from 'fast-check';
import {
  addDays,
  applyDelinquencyTrigger,
  DELINQUENCY_TRIGGERS,
  IllegalDelinquencyTransition,
  isClearedOn,
  isPausableStatus,
  RENTAL_DELINQUENCY_STATUSES,
  stageRank,
  transitionForPayment,
  transitionsForBusinessDate,
  type BusinessDateInput,
  type DelinquencySchedule,
  type DelinquencyState,
  type PausableStatus,
} from '../../src';

const PAUSABLE: PausableStatus[] = ['OVERDUE', 'OVERLOCK', 'LIEN', 'AUCTION'];

const scheduleArb: fc.Arbitrary<DelinquencySchedule> = fc
  .tuple(fc.integer({ min: 0, max: 15 }), fc.nat(20), fc.nat(40), fc.nat(60), fc.nat(5000))
  .map(([graceDays, a, b, c, lateFeeInPennies]) => ({
    graceDays,
    overlockDay: graceDays + 1 + a,
    lienDay: graceDays + 1 + a + b,
    auctionDay: graceDays + 1 + a + b + c,
    lateFeeInPennies,
  }));

const stateArb: fc.Arbitrary<DelinquencyState> = fc
  .tuple(fc.constantFrom(...RENTAL_DELINQUENCY_STATUSES), fc.constantFrom(...PAUSABLE))
  .map(([status, pausedFrom]) => (status === 'PAUSED' ? { status, pausedFrom } : { status, pausedFrom: null }));

const inputArb: fc.Arbitrary<BusinessDateInput> = fc
  .record({
    state: stateArb,
    hasOpenCharge: fc.boolean(),
    openChargeLater: fc.nat(60),
    daysPastDue: fc.integer({ min: -30, max: 200 }),
    schedule: scheduleArb,
  })
  .map(({ state, hasOpenCharge, openChargeLater, daysPastDue, schedule }) => ({
    ...state,
    oldestOpenDueOn: hasOpenCharge ? addDays('2025-01-15', state.status === 'CURRENT' || state.status === 'PAID' ? 0 : openChargeLater) : null,
    episodePastDueSince: state.status === 'CURRENT' || state.status === 'PAID' ? null : '2025-01-15',
    schedule,
    businessDate: addDays('2025-01-15', daysPastDue),
  }));

describe('delinquency properties', () => {
  it('progression never goes backwards and forms one chain from the current status', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const transitions = transitionsForBusinessDate(input);
        let status = input.status;
        let previousDate = '0000-01-01';
        for (const t of transitions) {
          expect(t.from).toBe(status);
          if (t.trigger === 'STAGE_ADVANCE') expect(stageRank(t.to)!).toBeGreaterThan(stageRank(t.from)!);
          expect(t.effectiveDate >= previousDate && t.effectiveDate <= input.businessDate).toBe(true);
          previousDate = t.effectiveDate;
          status = t.to;
        }
      }),
    );
  });

  it('PAID is reached only with nothing past due beyond the grace days', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const cleared = isClearedOn(input.oldestOpenDueOn, input.businessDate, input.schedule);
        if (transitionsForBusinessDate(input).some((t) => t.to === 'PAID')) expect(cleared).toBe(true);
        const payment = transitionForPayment({ state: input, oldestOpenDueOn: input.oldestOpenDueOn, paidOn: input.businessDate, schedule: input.schedule });
        if (payment !== null) expect(cleared).toBe(true);
      }),
    );
  });

  it('PAUSED never advances and WRITTEN_OFF never changes', () => {
    fc.assert(
      fc.property(inputArb, fc.constantFrom('PAUSED' as const, 'WRITTEN_OFF' as const), (input, status) => {
        expect(transitionsForBusinessDate({ ...input, status, pausedFrom: status === 'PAUSED' ? 'OVERLOCK' : null })).toEqual([]);
      }),
    );
    for (const trigger of DELINQUENCY_TRIGGERS) expect(() => applyDelinquencyTrigger({ status: 'WRITTEN_OFF' }, trigger)).toThrow();
    expect(() => applyDelinquencyTrigger({ status: 'PAUSED', pausedFrom: 'LIEN' }, 'STAGE_ADVANCE')).toThrow();
  });

  it('running the same business date again after applying the result brings nothing', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const first = transitionsForBusinessDate(input);
        const last = first.at(-1);
        if (last === undefined) return;
        expect(transitionsForBusinessDate({ ...input, status: last.to, pausedFrom: null })).toEqual([]);
      }),
    );
  });

  it('any sequence of triggers keeps the state coherent: pausedFrom only while PAUSED, nothing leaves WRITTEN_OFF', () => {
    fc.assert(
      fc.property(stateArb, fc.array(fc.constantFrom(...DELINQUENCY_TRIGGERS), { maxLength: 30 }), (start, triggers) => {
        let state = start;
        for (const trigger of triggers) {
          const before = state;
          try {
            state = applyDelinquencyTrigger(state, trigger);
          } catch (error) {
            expect(error).toBeInstanceOf(IllegalDelinquencyTransition);
            continue;
          }
          expect(before.status).not.toBe('WRITTEN_OFF');
          if (state.status === 'PAUSED') expect(isPausableStatus(state.pausedFrom!)).toBe(true);
          else expect(state.pausedFrom).toBeNull();
          if (before.status === 'PAUSED' && trigger === 'RESUME') expect(state.status).toBe(before.pausedFrom);
        }
      }),
    );
  });
});
