/** What other domains use from holdings. */
export { folioUnits } from "./holdings.service.js";
