import {
  addDays,
  DEFAULT_DELINQUENCY_SCHEDULE,
  delinquencyScheduleSchema,
  transitionForPayment,
  transitionsForBusinessDate,
  type BusinessDateInput,
} from '../../src';

const due = '2025-03-01';
const owing = (daysPastDue: number, overrides: Partial<BusinessDateInput> = {}): BusinessDateInput => ({
  status: 'CURRENT',
  balanceInPennies: 12_900,
  oldestUnpaidDueDate: due,
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
    expect(transitionsForBusinessDate(owing(90, { status: 'PAUSED', pausedFrom: 'OVERDUE', balanceInPennies: 0 }))).toEqual([]);
    expect(transitionsForBusinessDate(owing(90, { status: 'WRITTEN_OFF' }))).toEqual([]);
  });

  it('resolves a delinquent rental whose balance is cleared to PAID on the business date', () => {
    expect(transitionsForBusinessDate(owing(45, { status: 'LIEN', balanceInPennies: 0 }))).toEqual([
      { from: 'LIEN', to: 'PAID', trigger: 'PAYMENT_CLEARED', effectiveDate: '2025-04-15' },
    ]);
    expect(transitionsForBusinessDate(owing(45, { status: 'OVERDUE', balanceInPennies: -500 })).map((t) => t.to)).toEqual(['PAID']);
  });

  it('does nothing for a cleared balance that is not delinquent, or without an unpaid due date', () => {
    expect(transitionsForBusinessDate(owing(45, { balanceInPennies: 0 }))).toEqual([]);
    expect(transitionsForBusinessDate(owing(45, { status: 'PAID', balanceInPennies: 0 }))).toEqual([]);
    expect(transitionsForBusinessDate(owing(45, { oldestUnpaidDueDate: null }))).toEqual([]);
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
    expect(transitionForPayment({ state, balanceAfterInPennies: 0, paidOn: '2025-04-02' })).toEqual({
      from: status,
      to: 'PAID',
      trigger: 'PAYMENT_CLEARED',
      effectiveDate: '2025-04-02',
    });
  });

  it('a partial payment changes nothing', () => {
    expect(transitionForPayment({ state: { status: 'OVERLOCK' }, balanceAfterInPennies: 1, paidOn: '2025-04-02' })).toBeNull();
  });

  it.each(['CURRENT', 'PAID', 'WRITTEN_OFF'] as const)('a payment on %s changes nothing', (status) => {
    expect(transitionForPayment({ state: { status }, balanceAfterInPennies: -100, paidOn: '2025-04-02' })).toBeNull();
  });
});
