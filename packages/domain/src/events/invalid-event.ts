import type { z } from 'zod';

/** A message that does not match its contract; `issues` say which fields are at fault and why. */
export class InvalidEvent extends Error {
  override readonly name = 'InvalidEvent';

  constructor(readonly issues: readonly z.core.$ZodIssue[]) {
    super(`Invalid event: ${issues.map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`).join('; ')}`);
  }
}
