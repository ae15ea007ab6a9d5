import { fragment } from '@storage/persistence';

/*
 * A rental's state version, stated once with the rows it reads: the business-day run reads it with a rental's state
 * and writes the rental only if it is the same under the lock. Its aliases are its own (`VERSIONED_RENTAL`), so a
 * statement that reads it joins them here and depends on no other package's aliases.
 */

/** The rental `r` and its delinquency `d` (none before its first episode): the rows the state version is read from. */
export const VERSIONED_RENTAL = fragment(`rental_records r LEFT JOIN delinquencies d ON d.rental_record_uuid = r.uuid`);

/**
 * Everything a transition and its events are decided from, as the versions (xmin) of the rows read: the rental `r`,
 * its delinquency `d` (`VERSIONED_RENTAL`), tenant, auctions, services and the tenant's other rentals (their balances
 * are in the payload), and the facility's date. Any committed change to one of them changes the version: a changed
 * row has the xmin of a transaction that committed after the read. The lists are not ordered (no sort to pay for):
 * the same rows read in another order only cost a needless retry.
 */
export const STATE_VERSION = fragment(`format('%s/%s/%s/%s/%s/%s/%s', r.xmin, d.xmin,
  (SELECT tenant.xmin FROM persons tenant WHERE tenant.uuid = r.person_uuid),
  (SELECT (now() AT TIME ZONE tz.time_zone)::date FROM facilities tz WHERE tz.uuid = r.facility_uuid),
  (SELECT string_agg(a.xmin::text, ',') FROM auctions a WHERE a.rental_record_uuid = r.uuid),
  (SELECT string_agg(s.xmin::text, ',') FROM rental_services s WHERE s.rental_record_uuid = r.uuid),
  (SELECT string_agg(t.xmin::text, ',') FROM rental_records t WHERE t.person_uuid = r.person_uuid AND t.uuid <> r.uuid))`);
