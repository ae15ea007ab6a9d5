/**
 * Which endpoints an event goes to, as a condition on endpoint `e` (webhook_endpoints), for both fan-out statements
 * (`fanOut`/`fanOutAndMark`, one event from parameters; `fanOutAndMarkMany`, the rows `i`). The arguments are SQL
 * expressions, spliced in when the statements are declared:
 * - `portfolio`, `type`: an enabled endpoint of the event's portfolio that subscribes to its type;
 * - `facility`, `unitType` (uuid) and `amenities` (uuid[]): its filters match the event's (an empty filter matches
 *   everything; amenities match when any is shared);
 * - `ignoreFilters` (boolean): the filters are skipped (test events are for checking the endpoint itself);
 * - `onlyEndpoint` (uuid or NULL): only that endpoint (the portal's "Send example"); NULL, every one that matches.
 * A statement without these options passes `false` and `NULL`: PostgreSQL folds those conditions away when it plans
 * the statement, so its plan is the one without them.
 */
export const endpointMatches = (
  portfolio: string,
  type: string,
  facility: string,
  unitType: string,
  amenities: string,
  ignoreFilters: string,
  onlyEndpoint: string,
): string => `e.portfolio = ${portfolio} AND e.disabled_at IS NULL AND ${type} = ANY(e.event_types)
       AND (${onlyEndpoint}::uuid IS NULL OR e.id = ${onlyEndpoint})
       AND (${ignoreFilters} OR (
         (cardinality(e.facility_uuids) = 0 OR ${facility} = ANY(e.facility_uuids))
         AND (cardinality(e.unit_types) = 0 OR ${unitType} = ANY(e.unit_types))
         AND (cardinality(e.amenity_uuids) = 0 OR e.amenity_uuids && ${amenities})))`;
