import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DYNAMIC, findViolations, findWrites, parseOwnership } from '../src';

// The check itself, on a fixture repository whose writes are known: it must fail where an owner is bypassed.
const FIXTURE = join(__dirname, 'fixtures/repo');
const ownership = parseOwnership(readFileSync(join(FIXTURE, 'docs/ARCHITECTURE.md'), 'utf8'));

describe('the ownership table', () => {
  it('reads owners, writing functions and column owners from the first table of its section only', () => {
    expect(Object.fromEntries([...ownership.tables].map(([table, o]) => [table, o.owner]))).toEqual({
      orders: 'packages/orders',
      order_lines: 'packages/orders',
      carts: 'apps/shop',
    });
    expect(ownership.writingFunctions).toEqual(new Map([['order_post', 'orders']]));
    expect(ownership.tables.get('orders')?.columnOwners).toEqual(new Map([['total_in_pennies', 'apps/shop']]));
  });

  it('refuses a row without an owning workspace, naming its line', () => {
    expect(() => parseOwnership('## Who writes each table\n\n| Table | Owner |\n|---|---|\n| `a` | the api |\n')).toThrow('docs/ARCHITECTURE.md:5');
  });

  it('refuses a table with two owner rows', () => {
    expect(() => parseOwnership('## Who writes each table\n\n| T | O |\n|---|---|\n| `a` | apps/x |\n| `a` | apps/y |\n')).toThrow('second owner row');
  });
});

describe('finding writes in SQL', () => {
  const none = new Map<string, string>();

  it('finds every kind of write, with the columns an UPDATE sets', () => {
    const sql = `INSERT INTO a AS x (v) VALUES (1) ON CONFLICT (k) DO UPDATE SET v = 2;
      UPDATE ONLY b SET (p, q) = (SELECT 1, 2), r = coalesce($1, r) WHERE true; DELETE FROM public.c;
      TRUNCATE d, "e" RESTART IDENTITY; MERGE INTO f USING g ON true WHEN MATCHED THEN DELETE; COPY h (x) FROM STDIN`;
    expect(findWrites(sql, none).map((w) => [w.kind, w.table, w.columns])).toEqual([
      ['INSERT', 'a', undefined],
      ['UPDATE', 'b', ['p', 'q', 'r']],
      ['DELETE', 'c', undefined],
      ['TRUNCATE', 'd', undefined],
      ['TRUNCATE', 'e', undefined],
      ['MERGE', 'f', undefined],
      ['COPY', 'h', undefined],
    ]);
  });

  it('does not take reads, locks or prose for writes', () => {
    const sql = "SELECT * FROM a FOR NO KEY UPDATE; SELECT 1 FOR UPDATE OF a SKIP LOCKED; COPY (SELECT 1) TO STDOUT; COPY a TO STDOUT; SELECT 'x'";
    expect(findWrites(sql, none)).toEqual([]);
    expect(findWrites('SELECT 1 FROM a FOR UPDATE\n', none)).toEqual([]);
  });

  it('reads a substituted or concatenated table name as dynamic', () => {
    expect(findWrites('DELETE FROM ${…} WHERE true', none).map((w) => w.table)).toEqual([DYNAMIC]);
    expect(findWrites('INSERT INTO ', none).map((w) => w.table)).toEqual([DYNAMIC]);
  });
});

describe('the check on a fixture repository', () => {
  const violations = findViolations(FIXTURE, ownership, []);

  it('fails on every write outside its owner, naming file, line, table and owner; a test may state a bypass', () => {
    expect(violations).toEqual([
      { file: 'apps/shop/src/bypass.ts', line: 2, table: 'orders', owner: 'packages/orders', writer: 'apps/shop' },
      { file: 'apps/shop/src/cart.ts', line: 3, table: 'orders', owner: 'packages/orders', writer: 'apps/shop' },
      { file: 'apps/shop/src/cart.ts', line: 5, table: 'orders', owner: 'packages/orders', writer: 'apps/shop' },
      {
        file: 'apps/shop/src/cart.ts',
        line: 7,
        table: 'orders',
        owner: 'apps/shop and packages/orders, each of its own columns (split the UPDATE)',
        writer: 'apps/shop',
      },
      { file: 'apps/shop/src/cart.ts', line: 10, table: DYNAMIC, owner: 'none', writer: 'apps/shop' },
      { file: 'apps/shop/test/cart-fixtures.ts', line: 4, table: 'orders', owner: 'packages/orders', writer: 'apps/shop' },
      { file: 'apps/shop/test/cart-fixtures.ts', line: 5, table: 'order_lines', owner: 'packages/orders', writer: 'apps/shop' },
    ]);
  });

  it('leaves out the files exempted', () => {
    expect(findViolations(FIXTURE, ownership, [{ path: /^apps\/shop\//, why: 'a fixture' }])).toEqual([]);
  });
});
