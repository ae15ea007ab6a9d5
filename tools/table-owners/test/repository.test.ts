import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findViolations, parseOwnership, violationsIn, type Exemption, type Ownership } from '../src';

// The CI check: no SQL in apps/*/src, packages/*/src or tools/*/src writes a table (or a column) outside the owner
// docs/ARCHITECTURE.md names in "Who writes each table"; a test under a workspace's test/ writes its workspace's
// tables, and any other table only with the bypass stated in the statement (`-- owner-bypass: <why>`).
const ROOT = join(__dirname, '../../..');

/** Not scanned (docs/ARCHITECTURE.md says the same). */
const EXEMPT: Exemption[] = [
  { path: /^packages\/persistence\/src\/migrations\//, why: 'migrations change schema and data of every table, in order' },
  {
    path: /^packages\/testing\/src\//,
    why:
      'the test support package: the parent rows fixtures need (portfolios, facilities and catalog of apps/api, which packages cannot ' +
      'depend on; unit groups and units of packages/unit-occupancy, whose tests depend on @storage/testing: a workspace cycle)',
  },
  { path: /^tools\/table-owners\/test\//, why: "the check's own samples: SQL of made-up tables, written to be found" },
  {
    path: /^packages\/persistence\/test\//,
    why: "the schema's own tests: its foreign keys' rules hold under any write, and the statement check's samples are never run",
  },
];

describe('who writes each table', () => {
  const ownership = parseOwnership(readFileSync(join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8'));
  const violations = findViolations(ROOT, ownership, EXEMPT);

  it('no table is written outside its owner', () => {
    expect(violations.map((v) => `${v.file}:${v.line} writes ${v.table}, owned by ${v.owner}`)).toEqual([]);
  });

  // Onboarding once wrote through a helper that named its table at run time (exempt, so unseen): every one of its
  // writes is now a statement naming its table, in the workspace that owns it.
  it("sees onboarding's writes by their tables, the unit catalog's included", () => {
    const onboarding = readdirSync(join(ROOT, 'apps/api/src/onboarding'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => `apps/api/src/onboarding/${file}`);
    const files = [...onboarding, 'packages/unit-occupancy/src/unit-catalog.ts'];
    // Owned by nobody, every write is reported with the table it names.
    const ownedByNobody: Ownership = { tables: new Map(), writingFunctions: ownership.writingFunctions };
    const written = new Set(files.flatMap((file) => violationsIn(file, readFileSync(join(ROOT, file), 'utf8'), ownedByNobody).map((v) => v.table)));
    expect([...written].sort()).toEqual(
      [
        'amenities',
        'coverages',
        'facilities',
        'item_types',
        'lead_marketing_sources',
        'lead_sources',
        'portfolios',
        'promotions',
        'rate_plans',
        'size_and_type_groups',
        'unit_group_amenities',
        'unit_groups',
        'unit_types',
        'units',
      ].sort(),
    );
  });
});
