/** Marks a text as a piece of SQL lent to another statement; never set at run time. */
declare const FRAGMENT: unique symbol;

/**
 * A piece of a statement, for the one case a statement is composed of two owners' SQL: a write that must stay one
 * round trip with another owner's write (the outbox rows of a rent change, the ledger entries of a transition). Its
 * parameters are the composed statement's, whose `Values` tuple types them and the statement check checks them; an
 * owner exports fragments or typed operations, never a bare SQL string (lint: `noBareSqlExports`).
 */
export type SqlFragment = string & { readonly [FRAGMENT]: true };

/** A piece of SQL, as written; the statement check folds it into the statements that splice it. */
export function fragment(text: string): SqlFragment {
  return text as SqlFragment;
}
