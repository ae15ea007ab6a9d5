/** The rental is unknown, or not at the facility and portfolio the caller named. */
export class RentalNotFound extends Error {
  override readonly name = 'RentalNotFound';
  constructor(readonly rentalRecordUuid: string) {
    super(`Rental record ${rentalRecordUuid} not found.`);
  }
}

/** The operation does not fit the rental's or auction's current state (answered as a conflict). */
export class DelinquencyConflict extends Error {
  override readonly name = 'DelinquencyConflict';
}

/** A value the caller gave is wrong whatever the state; `field` names it. */
export class InvalidDelinquencyInput extends Error {
  override readonly name = 'InvalidDelinquencyInput';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}
