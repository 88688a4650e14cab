/**
 * The Business group's modules: businesses and their approval queue (./businesses.ts) and the
 * requests to change a business (./updates.ts), which, approved, change the business through
 * the businesses module's record.
 */
export { businessApprovalModule, businessesModule } from "./businesses";
export { businessUpdatesModule } from "./updates";
