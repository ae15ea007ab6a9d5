import { id } from './test-api';

export interface RouteCall {
  name: string;
  method: 'GET' | 'POST' | 'PATCH';
  url: string;
  body?: unknown;
  write: boolean;
}

const downtown = id('facility:downtown');
const shop = '/shopping/demo/v1';
const ops = '/api/demo/portfolios/v1';

/** A valid call of every route of portfolio `demo` that this module serves (operations 1-14 and the extensions). */
export const DEMO_ROUTES: RouteCall[] = [
  { name: 'op 1 promotions', method: 'POST', url: `${shop}/promotions/eligible-auto-applied-promotions-with-highest-discount`, body: { facilityUuids: downtown }, write: false },
  { name: 'op 2 validate-preexisting', method: 'POST', url: `${shop}/facilities/tenant/validate-preexisting`, body: { facilityUuid: downtown, email: 'ava.smith.0@example.com', code: '123456' }, write: true },
  { name: 'op 3 converted lead', method: 'GET', url: `${shop}/facilities/tenant/${id('lead:4')}`, write: false },
  { name: 'op 4 coverages', method: 'GET', url: `${shop}/coverages/${downtown}`, write: false },
  { name: 'op 5 lead sources', method: 'GET', url: `${shop}/lead-sources`, write: false },
  { name: 'op 7 size and type', method: 'POST', url: `${ops}/facilities/${downtown}/unitGroups/sizeAndType/get_by_uuids`, body: { sizeAndTypeUnitGroupUuids: [id('size:downtown:5x5')] }, write: false },
  { name: 'op 8 vehicles', method: 'POST', url: `${ops}/facilities/${downtown}/vehicles/get_by_uuids`, body: { vehicleUuids: [id('vehicle:6')] }, write: false },
  { name: 'op 9 coverage history', method: 'POST', url: `${ops}/facilities/${downtown}/coverageHistory/get_by_uuids`, body: { coverageHistoryUuids: [id('enrollment:1:1')] }, write: false },
  { name: 'op 10 patch rate', method: 'PATCH', url: `${ops}/facilities/${downtown}/unitGroups/${id('unit-group:downtown:5x5:1')}/rate`, body: { baseWebRateInPennies: 1, baseStreetRateInPennies: 2 }, write: true },
  { name: 'op 11 update person', method: 'PATCH', url: `${ops}/tenants/person/${id('person:1')}`, body: { email: 'changed@example.com' }, write: true },
  { name: 'op 12 lead note', method: 'POST', url: `${ops}/notes/lead/${id('lead:1')}`, body: { noteText: 'changed' }, write: true },
  { name: 'op 13 send lease', method: 'POST', url: `${ops}/facilities/${downtown}/leads/${id('lead:1')}/sendLease`, write: true },
  { name: 'op 14 gate code', method: 'GET', url: `${ops}/facilities/${downtown}/rentalRecords/${id('rental:0')}/gateAccessCode`, write: false },
  { name: 'ext facilities', method: 'GET', url: `${shop}/facilities`, write: false },
  { name: 'ext create lead', method: 'POST', url: `${shop}/leads`, body: { facilityUuid: downtown, firstName: 'A', lastName: 'B', email: 'a@example.com' }, write: true },
  { name: 'ext check-preexisting', method: 'POST', url: `${shop}/facilities/tenant/check-preexisting`, body: { facilityUuid: downtown, email: 'ava.smith.0@example.com' }, write: true },
  { name: 'ext notifications', method: 'GET', url: `${ops}/notifications?leadUuid=${id('lead:1')}`, write: false },
];
