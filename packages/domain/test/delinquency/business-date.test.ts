import {
  addDays,
  DEFAULT_DELINQUENCY_SCHEDULE,
  delinquencyScheduleSchema,
  isClearedOn,
  transitionForPayment,
  transitionsForBusinessDate,
  type BusinessDateInput,
} from '../../src';

const due = '2025-03-01';
const owing = (daysPastDue: number, overrides: Partial<BusinessDateInput> = {}): BusinessDateInput => ({
  status: 'CURRENT',
  oldestOpenDueOn: due,
  episodePastDueSince: null,
  schedule: DEFAULT_DELINQUENCY_SCHEDULE,
  businessDate: addDays(due, daysPastDue),
  ...overrides,
});

describe('default schedule', () => {
  it('is grace 5, overlock 10, lien 30, auction 60, and valid', () => {
    expect(DEFAULT_DELINQUENCY_SCHEDULE).toMatchObject({ graceDays: 5, overlockDay: 10, lienDay: 30, auctionDay: 60 });
    expect(delinquencyScheduleSchema.safeParse(DEFAULT_DELINQUENCY_SCHEDULE).success).toBe(true);
  });

  it('refuses stages out of order', () => {
    const bad = { ...DEFAULT_DELINQUENCY_SCHEDULE, lienDay: 8 };
    expect(delinquencyScheduleSchema.safeParse(bad).success).toBe(false);
    expect(() => transitionsForBusinessDate(owing(40, { schedule: bad }))).toThrow();
  });
});

describe('transitionsForBusinessDate', () => {
  it('nothing during the grace days', () => {
    expect(transitionsForBusinessDate(owing(5))).toEqual([]);
  });

  it('OVERDUE on day graceDays + 1', () => {
    expect(transitionsForBusinessDate(owing(6))).toEqual([{ from: 'CURRENT', to: 'OVERDUE', trigger: 'STAGE_ADVANCE', effectiveDate: '2025-03-07' }]);
  });

  it.each([
    ['OVERDUE', 9, []],
    ['OVERDUE', 10, ['OVERLOCK']],
    ['OVERLOCK', 29, []],
    ['OVERLOCK', 30, ['LIEN']],
    ['LIEN', 59, []],
    ['LIEN', 60, ['AUCTION']],
    ['AUCTION', 400, []],
  ] as const)('%s on day %p → %p', (status, day, expected) => {
    expect(transitionsForBusinessDate(owing(day, { status })).map((t) => t.to)).toEqual(expected);
  });

  it('catches up missed stages in order, each once, effective the day each fell due', () => {
    expect(transitionsForBusinessDate(owing(35))).toEqual([
      { from: 'CURRENT', to: 'OVERDUE', trigger: 'STAGE_ADVANCE', effectiveDate: '2025-03-07' },
      { from: 'OVERDUE', to: 'OVERLOCK', trigger: 'STAGE_ADVANCE', effectiveDate: '2025-03-11' },
      { from: 'OVERLOCK', to: 'LIEN', trigger: 'STAGE_ADVANCE', effectiveDate: '2025-03-31' },
    ]);
  });

  it('brings nothing new on a rerun once LIEN is reached', () => {
    expect(transitionsForBusinessDate(owing(35, { status: 'LIEN' }))).toEqual([]);
  });

  it('starts a new delinquency from PAID', () => {
    expect(transitionsForBusinessDate(owing(12, { status: 'PAID' })).map((t) => [t.from, t.to])).toEqual([
      ['PAID', 'OVERDUE'],
      ['OVERDUE', 'OVERLOCK'],
    ]);
  });

  it('moves nothing while PAUSED or once WRITTEN_OFF', () => {
    expect(transitionsForBusinessDate(owing(90, { status: 'PAUSED', pausedFrom: 'OVERDUE' }))).toEqual([]);
    expect(transitionsForBusinessDate(owing(90, { status: 'PAUSED', pausedFrom: 'OVERDUE', oldestOpenDueOn: null }))).toEqual([]);
    expect(transitionsForBusinessDate(owing(90, { status: 'WRITTEN_OFF' }))).toEqual([]);
  });

  it('resolves a delinquent rental with no open charge to PAID on the business date', () => {
    expect(transitionsForBusinessDate(owing(45, { status: 'LIEN', episodePastDueSince: due, oldestOpenDueOn: null }))).toEqual([
      { from: 'LIEN', to: 'PAID', trigger: 'PAYMENT_CLEARED', effectiveDate: '2025-04-15' },
    ]);
  });

  it('resolves it to PAID when only charges still in their grace days are open, not while an overdue one is', () => {
    const date = addDays(due, 40);
    expect(
      transitionsForBusinessDate(owing(40, { status: 'OVERLOCK', episodePastDueSince: due, oldestOpenDueOn: addDays(date, -5) })).map((t) => t.to),
    ).toEqual(['PAID']);
    expect(
      transitionsForBusinessDate(owing(40, { status: 'OVERLOCK', episodePastDueSince: due, oldestOpenDueOn: addDays(date, -6) })).map((t) => t.to),
    ).toEqual(['LIEN']);
  });

  it('counts an episode from its own due date, even once a partial payment leaves a newer charge the oldest open', () => {
    expect(transitionsForBusinessDate(owing(10, { status: 'OVERDUE', episodePastDueSince: due, oldestOpenDueOn: addDays(due, 3) }))).toEqual([
      { from: 'OVERDUE', to: 'OVERLOCK', trigger: 'STAGE_ADVANCE', effectiveDate: '2025-03-11' },
    ]);
  });

  it('does nothing for a rental with nothing open that is not delinquent', () => {
    expect(transitionsForBusinessDate(owing(45, { oldestOpenDueOn: null }))).toEqual([]);
    expect(transitionsForBusinessDate(owing(45, { status: 'PAID', oldestOpenDueOn: null }))).toEqual([]);
  });

  it('is cleared with no open charge or the oldest one within its grace days', () => {
    expect(isClearedOn(null, due, DEFAULT_DELINQUENCY_SCHEDULE)).toBe(true);
    expect(isClearedOn(due, addDays(due, 5), DEFAULT_DELINQUENCY_SCHEDULE)).toBe(true);
    expect(isClearedOn(due, addDays(due, 6), DEFAULT_DELINQUENCY_SCHEDULE)).toBe(false);
  });

  it('does nothing before the due date', () => {
    expect(transitionsForBusinessDate(owing(-3))).toEqual([]);
  });

  it('follows a facility schedule', () => {
    const schedule = { graceDays: 0, overlockDay: 1, lienDay: 1, auctionDay: 2, lateFeeInPennies: 0 };
    expect(transitionsForBusinessDate(owing(1, { schedule })).map((t) => [t.to, t.effectiveDate])).toEqual([
      ['OVERDUE', '2025-03-02'],
      ['OVERLOCK', '2025-03-02'],
      ['LIEN', '2025-03-02'],
    ]);
  });

  it('refuses a malformed business date', () => {
    expect(() => transitionsForBusinessDate(owing(1, { businessDate: '2025-3-9' }))).toThrow(RangeError);
  });
});

describe('transitionForPayment', () => {
  it.each(['OVERDUE', 'OVERLOCK', 'LIEN', 'AUCTION', 'PAUSED'] as const)('a clearing payment moves %s to PAID on the payment date', (status) => {
    const state = status === 'PAUSED' ? { status, pausedFrom: 'LIEN' as const } : { status };
    expect(transitionForPayment({ state, oldestOpenDueOn: null, paidOn: '2025-04-02', schedule: DEFAULT_DELINQUENCY_SCHEDULE })).toEqual({
      from: status,
      to: 'PAID',
      trigger: 'PAYMENT_CLEARED',
      effectiveDate: '2025-04-02',
    });
  });

  it('a partial payment that leaves an overdue charge open changes nothing; one that leaves only a charge in its grace days clears', () => {
    const payment = { state: { status: 'OVERLOCK' as const }, paidOn: '2025-04-02', schedule: DEFAULT_DELINQUENCY_SCHEDULE };
    expect(transitionForPayment({ ...payment, oldestOpenDueOn: '2025-03-01' })).toBeNull();
    expect(transitionForPayment({ ...payment, oldestOpenDueOn: '2025-04-01' })?.to).toBe('PAID');
  });

  it.each(['CURRENT', 'PAID', 'WRITTEN_OFF'] as const)('a payment on %s changes nothing', (status) => {
    expect(transitionForPayment({ state: { status }, oldestOpenDueOn: null, paidOn: '2025-04-02', schedule: DEFAULT_DELINQUENCY_SCHEDULE })).toBeNull();
  });
});
