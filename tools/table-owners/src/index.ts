// The table-ownership check: docs/ARCHITECTURE.md's ownership table read as data, and the writes that break it.
export { parseOwnership, type Ownership, type TableOwnership } from './ownership-table';
export { findViolations, violationsIn, type Exemption, type Violation } from './scan';
export { DYNAMIC, findWrites, type SqlWrite, type WriteKind } from './sql-writes';
