import { Injectable, type PipeTransform } from '@nestjs/common';
import { InvalidRequestException } from '@storage/platform';
import { PORTFOLIO_ID_PATTERN } from './catalog.dto';

const PORTFOLIO_ID = new RegExp(PORTFOLIO_ID_PATTERN);

/** A portfolio id becomes a path segment of every route of the portfolio: lower-case letters, digits and dashes. */
@Injectable()
export class PortfolioIdPipe implements PipeTransform<unknown, string> {
  transform(value: unknown): string {
    if (typeof value !== 'string' || !PORTFOLIO_ID.test(value)) {
      throw new InvalidRequestException([
        { field: 'portfolioId', message: 'portfolioId must be 1 to 63 lower-case letters, digits or dashes, starting with a letter or digit' },
      ]);
    }
    return value;
  }
}
