import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';

/** A payment processor's token for a stored method (`pm_…`), never card details: the platform holds no card data. */
const PAYMENT_METHOD_PATTERN = /^[A-Za-z0-9_-]+$/;

export class EnableAutopayRequest {
  @ApiProperty({
    description:
      "The payment method autopay charges on each due date: the processor's token for the tenant's stored method. With the embedded " +
      'payment port every method is approved except the test methods `pm_card_declined` (declined, `card_declined`) and ' +
      '`pm_card_insufficient_funds` (declined, `insufficient_funds`).',
    minLength: 3,
    maxLength: 100,
    pattern: PAYMENT_METHOD_PATTERN.source,
    example: 'pm_card_visa',
  })
  @IsString()
  @Length(3, 100)
  @Matches(PAYMENT_METHOD_PATTERN, { message: 'paymentMethod must be a payment method token: letters, digits, _ and -' })
  paymentMethod!: string;
}

/** The rental's autopay as it stands. */
export class AutopayView {
  @ApiProperty({ format: 'uuid' }) rentalRecordUuid!: string;
  @ApiProperty() isAutopayEnabled!: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'null when autopay is off.' }) paymentMethod!: string | null;
}
