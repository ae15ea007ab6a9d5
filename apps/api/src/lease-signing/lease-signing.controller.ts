import { Body, Controller, Get, HttpCode, Inject, Param, Post, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AcceptsFormBody } from '@storage/platform';
import type { FastifyReply } from 'fastify';
import { LeasePageRateLimitGuard } from '../rate-limit';
import { refusalPage, signedPage, termsPage } from './lease-page';
import { LeaseSigningService, type LeaseOutcome } from './lease-signing.service';
import { SameOriginGuard } from './same-origin.guard';

interface Page {
  status: number;
  html: string;
}

/** An answer documented as the HTML page it is (failures included, unlike the API's problem+json). */
const HtmlPage = (status: number, description: string): MethodDecorator =>
  ApiResponse({ status, description, content: { 'text/html': { schema: { type: 'string' } } } });

/** The signing token of operation 13's link: base64url (43 characters), what `isSigningTokenShape` takes within the router's segment limit. */
const TokenParam = ApiParam({
  name: 'token',
  description: 'The signing token of the lease link.',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,100}$' },
});

/**
 * The lease page of the signing link (no API key: the unguessable token is the credential). Answers are
 * HTML for the tenant's browser, failures included (but 429, problem+json as every rate limit's).
 */
@ApiTags('Extensions')
@UseGuards(LeasePageRateLimitGuard)
@Controller('leases/sign')
export class LeaseSigningController {
  constructor(@Inject(LeaseSigningService) private readonly leases: LeaseSigningService) {}

  @Get(':token')
  @TokenParam
  @ApiOperation({
    operationId: 'viewLease',
    summary: 'Lease page: the terms and a sign form (HTML)',
    description:
      "The lease page sent by operation 13, for the tenant's browser (no API key: the token in the link is the credential): facility, unit group, rent, coverage, promotions, what is due at signing, and the sign form; once signed, the rental and its gate code. 404 unknown link; 410 void or sent more than 30 days ago.",
  })
  @HtmlPage(200, 'The terms, or the signed rental when already signed.')
  @HtmlPage(404, 'Unknown signing link.')
  @HtmlPage(410, 'Expired or withdrawn lease.')
  async view(@Param('token') token: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    return send(reply, pageFor(token, await this.leases.view(token)));
  }

  @Post(':token')
  @TokenParam
  @HttpCode(200)
  @AcceptsFormBody()
  @UseGuards(SameOriginGuard)
  @ApiOperation({
    operationId: 'signLease',
    summary: 'Sign the lease (form post with agree=yes): the lead becomes a tenant (event moved-in)',
    description:
      'The lease page\'s form (`agree=yes`, no API key): claims a vacant unit, opens the rental with its promotions and coverage, posts the charges due at signing, issues a gate code and converts the lead. Emits `charge-posted` per charge and `moved-in`. Signing again answers "already signed"; no vacant unit left is a 409 page; a post from another site is 403.',
  })
  @HtmlPage(200, 'Signed now, or already signed before (then nothing changes).')
  @HtmlPage(400, 'The terms were not agreed to (the terms page again); a body that cannot be parsed is answered with problem+json.')
  @HtmlPage(404, 'Unknown signing link.')
  @HtmlPage(409, 'No vacant unit is left in the unit group.')
  @HtmlPage(410, 'Expired or withdrawn lease.')
  @ApiResponse({ status: 403, description: 'Posted from another site (`Origin` or `Sec-Fetch-Site`): nothing is signed.' })
  async sign(@Param('token') token: string, @Body() form: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    if (!agreed(form)) {
      const outcome = await this.leases.view(token);
      if (outcome.kind !== 'terms') return send(reply, pageFor(token, outcome));
      return send(reply, { status: 400, html: termsPage(token, outcome, 'Please tick the box to agree to the terms before signing.') });
    }
    return send(reply, pageFor(token, await this.leases.sign(token)));
  }
}

/** The form is checked here rather than by a DTO: a refusal must be a page, not problem+json. */
function agreed(form: unknown): boolean {
  return typeof form === 'object' && form !== null && (form as Record<string, unknown>).agree === 'yes';
}

function pageFor(token: string, outcome: LeaseOutcome): Page {
  switch (outcome.kind) {
    case 'terms':
      return { status: 200, html: termsPage(token, outcome) };
    case 'signed':
      return { status: 200, html: signedPage(outcome.rental, outcome.firstTime) };
    case 'unknown':
      return { status: 404, html: refusalPage('Lease not found', 'This signing link is not valid. Please use the latest link the facility sent you.') };
    case 'expired':
      return { status: 410, html: refusalPage('Lease expired', 'This lease can no longer be signed. Please ask the facility to send it again.') };
    case 'no-vacant-unit':
      return {
        status: 409,
        html: refusalPage(
          'No unit available',
          'Sorry, the last unit of this size was just rented. Nothing was signed; please contact the facility for another unit.',
        ),
      };
  }
}

/*
 * Lease pages carry a secret in their address: never cached, never sent on as a referrer to another origin, never
 * sniffed as another type, and nothing but our own inline style and a post back to ourselves allowed. The referrer
 * goes to ourselves (`same-origin`, not `no-referrer`): under `no-referrer` the sign form's post says `Origin: null`,
 * which SameOriginGuard refuses as it refuses another site's.
 */
function send(reply: FastifyReply, page: Page): string {
  void reply
    .status(page.status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'same-origin')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'");
  return page.html;
}
