import type { LeaseTerms } from './lease-terms';

/**
 * A promotion shown with the terms: the best rent promotion or a service winner of the unit group. Signing
 * records exactly these on the rental.
 */
export interface ShownPromotion {
  promotionUuid: string;
  name: string;
  discountInPennies: number;
  appliesTo: string;
}

/** The lease as the page offers it: its terms, the promotions it shows, and what signing charges. */
export interface LeaseOffer {
  terms: LeaseTerms;
  promotions: ShownPromotion[];
  /** The first period's charges net of the promotions, due on signing (`moveInCharges`). */
  dueAtSigningInPennies: number;
}

/** What the tenant sees once the lease is signed. */
export interface SignedRental {
  facilityName: string;
  unitName: string;
  floor: string;
  gateAccessCode: string | null;
  startDate: string;
  rentInPennies: number;
  nextDueDate: string;
  /** What signing charged (the first period, net of promotions) and what the tenant owes now. */
  amountDueAtMoveInInPennies: number;
  balanceInPennies: number;
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);

const money = (pennies: number): string => `$${(pennies / 100).toFixed(2)}`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #ddd}
.notice{padding:.75rem;border-radius:.25rem;background:#fff4e5}button{font-size:1rem;padding:.5rem 1.25rem}
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>`;
}

const rows = (entries: [string, string][]): string =>
  `<table>${entries.map(([label, value]) => `<tr><th scope="row">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>`;

/** The lease terms and the sign form; `problem` is shown above the form when a submission was refused. */
export function termsPage(token: string, offer: LeaseOffer, problem?: string): string {
  const { terms, promotions } = offer;
  const coverage = terms.coverage;
  const services = coverage === null ? 'None' : `${coverage.itemTypeName}: ${money(coverage.premiumInPennies)} per month`;
  const body = `
<p>Hello ${escapeHtml(terms.tenantName)}, here is your lease at ${escapeHtml(terms.facilityName)}.</p>
${rows([
  ['Facility', `${terms.facilityName}, ${terms.facilityAddress}`],
  ['Facility phone', terms.facilityPhone],
  ['Unit', `${terms.unitGroupDescription} (${terms.unitSize}, ${terms.unitType}); the unit number is assigned when you sign`],
  ['Monthly rent', money(terms.rentInPennies)],
  ['Recurring services', services],
  ['Coverage', coverage === null ? 'None' : `${coverage.description}, ${money(coverage.premiumInPennies)} per month`],
  [
    'Due at signing',
    `${money(offer.dueAtSigningInPennies)} (the first month's rent and services, less promotions; a first month shorter than a month is charged by the day)`,
  ],
])}
<h2>Promotions</h2>
${
  promotions.length === 0
    ? '<p>No promotion applies.</p>'
    : `<ul>${promotions.map((p) => `<li>${escapeHtml(p.name)}: ${money(p.discountInPennies)} off ${escapeHtml(p.appliesTo)}</li>`).join('')}</ul>`
}
${problem === undefined ? '' : `<p class="notice" role="alert">${escapeHtml(problem)}</p>`}
<form method="post" action="/leases/sign/${encodeURIComponent(token)}">
<p><label><input type="checkbox" name="agree" value="yes" required> I have read and agree to the terms of this lease.</label></p>
<p><button type="submit">Sign the lease</button></p>
</form>`;
  return layout('Your storage lease', body);
}

export function signedPage(rental: SignedRental, firstTime: boolean): string {
  const body = `
<p>${firstTime ? 'Thank you, your lease is signed. Welcome!' : 'This lease is already signed; nothing was changed.'}</p>
${rows([
  ['Facility', rental.facilityName],
  ['Unit', `${rental.unitName} (floor ${rental.floor})`],
  ['Gate access code', rental.gateAccessCode ?? 'No longer active'],
  ['Rental start', rental.startDate],
  ['Monthly rent', money(rental.rentInPennies)],
  ['Charged at move-in', money(rental.amountDueAtMoveInInPennies)],
  ['Balance', money(rental.balanceInPennies)],
  ['Next payment due', rental.nextDueDate],
])}`;
  return layout('Lease signed', body);
}

/** A page that explains why the lease cannot be signed, and what to do. */
export function refusalPage(title: string, message: string): string {
  return layout(title, `<p class="notice" role="alert">${escapeHtml(message)}</p>`);
}
