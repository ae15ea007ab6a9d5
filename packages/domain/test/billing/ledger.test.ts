import fc from 'fast-check';
import { allocatePayment, balanceOf, openCharges, pastDueSince, type LedgerLine } from '../../src';

let counter = 0;
const id = (): string => `entry-${++counter}`;
const charge = (amountInPennies: number, dueOn: string, entryUuid = id()): LedgerLine => ({ entryUuid, amountInPennies, dueOn, appliesTo: null });
const payment = (amountInPennies: number): LedgerLine => ({ entryUuid: id(), amountInPennies: -amountInPennies, dueOn: null, appliesTo: null });
const discount = (of: LedgerLine, amountInPennies: number): LedgerLine => ({
  entryUuid: id(),
  amountInPennies: -amountInPennies,
  dueOn: null,
  appliesTo: of.entryUuid,
});

describe('open charges', () => {
  it('payments cover the oldest due charge first', () => {
    const march = charge(10_000, '2026-03-15');
    const april = charge(10_000, '2026-04-15');
    const may = charge(10_000, '2026-05-15');
    expect(openCharges([march, april, may, payment(15_000)])).toEqual([
      { entryUuid: april.entryUuid, dueOn: '2026-04-15', openInPennies: 5_000 },
      { entryUuid: may.entryUuid, dueOn: '2026-05-15', openInPennies: 10_000 },
    ]);
  });

  it('orders by due date, not posting order, and keeps posting order on the same day', () => {
    const lateFee = charge(2_000, '2026-04-21');
    const rent = charge(10_000, '2026-04-15');
    const fee = charge(500, '2026-04-15');
    expect(openCharges([lateFee, rent, fee, payment(10_200)]).map((c) => [c.entryUuid, c.openInPennies])).toEqual([
      [fee.entryUuid, 300],
      [lateFee.entryUuid, 2_000],
    ]);
  });

  it('a promotion credit nets its own charge, never an older unpaid one', () => {
    const march = charge(10_000, '2026-03-15');
    const april = charge(10_000, '2026-04-15');
    expect(pastDueSince([march, april, discount(april, 10_000)])).toBe('2026-03-15');
    expect(openCharges([march, april, discount(april, 10_000)])).toEqual([{ entryUuid: march.entryUuid, dueOn: '2026-03-15', openInPennies: 10_000 }]);
  });

  it('refuses an entry that adds to the balance without a due date', () => {
    expect(() => openCharges([{ entryUuid: 'refund', amountInPennies: 100, dueOn: null, appliesTo: null }])).toThrow(RangeError);
  });

  it('a partial payment that leaves the oldest charge open does not move the past-due date', () => {
    const lines = [charge(10_000, '2026-03-15'), charge(10_000, '2026-04-15')];
    expect(pastDueSince(lines)).toBe('2026-03-15');
    expect(pastDueSince([...lines, payment(9_999)])).toBe('2026-03-15');
    expect(pastDueSince([...lines, payment(10_000)])).toBe('2026-04-15');
    expect(pastDueSince([...lines, payment(20_000)])).toBeNull();
  });

  it('credit left over covers charges posted later; a refund (due the day it is paid out) takes it back', () => {
    const lines = [payment(5_000), charge(3_000, '2026-05-15')];
    expect(openCharges(lines)).toEqual([]);
    expect(balanceOf(lines)).toBe(-2_000);
    const refunded = [...lines, charge(2_000, '2026-05-20')];
    expect(balanceOf(refunded)).toBe(0);
    const next = charge(3_000, '2026-06-15');
    expect(openCharges([...refunded, next])).toEqual([{ entryUuid: next.entryUuid, dueOn: '2026-06-15', openInPennies: 3_000 }]);
  });
});

describe('allocating a payment', () => {
  it('settles the oldest charges first and leaves the rest as credit', () => {
    const march = charge(10_000, '2026-03-15');
    const april = charge(10_000, '2026-04-15');
    expect(allocatePayment([march, april], 25_000)).toEqual({
      settles: [
        { entryUuid: march.entryUuid, dueOn: '2026-03-15', openInPennies: 10_000 },
        { entryUuid: april.entryUuid, dueOn: '2026-04-15', openInPennies: 10_000 },
      ],
      unappliedInPennies: 5_000,
    });
    expect(allocatePayment([march, april], 4_000).settles).toEqual([{ entryUuid: march.entryUuid, dueOn: '2026-03-15', openInPennies: 4_000 }]);
  });
});

describe('ledger properties', () => {
  const day = fc.integer({ min: 1, max: 28 }).map((d) => `2026-0${1 + (d % 9)}-${String(d).padStart(2, '0')}`);
  const line: fc.Arbitrary<(earlier: LedgerLine[]) => LedgerLine> = fc.oneof(
    fc.tuple(fc.integer({ min: 1, max: 50_000 }), day).map(
      ([amount, due]) =>
        () =>
          charge(amount, due),
    ),
    fc.integer({ min: 1, max: 50_000 }).map((amount) => () => payment(amount)),
    fc.tuple(fc.nat(), fc.integer({ min: 1, max: 10_000 })).map(([pick, amount]) => (earlier: LedgerLine[]) => {
      const charges = earlier.filter((l) => l.dueOn !== null);
      if (charges.length === 0) return payment(amount);
      const target = charges[pick % charges.length];
      return discount(target, Math.min(amount, target.amountInPennies));
    }),
  );
  const ledger = fc.array(line, { maxLength: 40 }).map((makers) => makers.reduce<LedgerLine[]>((lines, make) => [...lines, make(lines)], []));

  it('what is open sums to the balance when owed, to nothing when in credit', () => {
    fc.assert(
      fc.property(ledger, (lines) => {
        const open = openCharges(lines).reduce((sum, c) => sum + c.openInPennies, 0);
        expect(open).toBe(Math.max(0, balanceOf(lines)));
      }),
    );
  });

  it('open charges are the latest due: every charge due before the first open one is covered', () => {
    fc.assert(
      fc.property(ledger, (lines) => {
        const open = openCharges(lines);
        for (let i = 1; i < open.length; i++) expect(open[i - 1].dueOn <= open[i].dueOn).toBe(true);
        // Only the first open charge may be partly covered.
        for (const c of open.slice(1)) {
          const own = lines.find((l) => l.entryUuid === c.entryUuid)!;
          const credits = lines.filter((l) => l.appliesTo === c.entryUuid).reduce((sum, l) => sum + l.amountInPennies, 0);
          expect(c.openInPennies).toBe(own.amountInPennies + credits);
        }
      }),
    );
  });

  it('a payment settles exactly min(payment, what is open), and the ledger after it agrees', () => {
    fc.assert(
      fc.property(ledger, fc.integer({ min: 1, max: 100_000 }), (lines, amount) => {
        const owed = Math.max(0, balanceOf(lines));
        const { settles, unappliedInPennies } = allocatePayment(lines, amount);
        expect(settles.reduce((sum, c) => sum + c.openInPennies, 0)).toBe(Math.min(amount, owed));
        expect(unappliedInPennies).toBe(amount - Math.min(amount, owed));
        const after = openCharges([...lines, payment(amount)]).reduce((sum, c) => sum + c.openInPennies, 0);
        expect(after).toBe(owed - Math.min(amount, owed));
      }),
    );
  });
});
