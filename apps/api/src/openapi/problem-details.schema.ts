import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { FieldError, ProblemDetails } from '@storage/platform';

/** One field at fault, as `ProblemDetailsFilter` (@storage/platform) writes it. */
@ApiSchema({ name: 'FieldError' })
export class FieldErrorSchema implements FieldError {
  @ApiProperty({
    description: 'The field at fault: a path into the body (`address.zip`, `eventTypes[1]`), a parameter name, or `body` for the body as a whole.',
    example: 'email',
  })
  field!: string;

  @ApiProperty({ example: 'email must be an email address' })
  message!: string;
}

/** The body of every failure, documented once and referenced by every 4xx answer. */
@ApiSchema({ name: 'ProblemDetails', description: 'RFC 9457 problem details (`application/problem+json`), the body of every failure.' })
export class ProblemDetailsSchema implements ProblemDetails {
  @ApiProperty({
    format: 'uri-reference',
    description: '`about:blank`: the status says what went wrong; or, where a route documents one, a URI naming the reason (and `title` summarises it).',
    example: 'about:blank',
  })
  type!: string;

  @ApiProperty({ description: 'The reason phrase of the status, or the summary of the reason `type` names.', example: 'Bad Request' })
  title!: string;

  @ApiProperty({ type: 'integer', description: 'The HTTP status of the answer.', example: 400 })
  status!: number;

  @ApiProperty({ description: 'What went wrong with this request.', example: 'The request has invalid fields.' })
  detail!: string;

  @ApiPropertyOptional({
    type: [FieldErrorSchema],
    description: 'Each field at fault: on invalid input (400), and on a conflict (409) when fields block the change.',
  })
  errors?: FieldErrorSchema[];
}
