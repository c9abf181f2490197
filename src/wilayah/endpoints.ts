/** Every regional data endpoint, in route order, as the catalogue (src/catalogue.ts) lists them. */
import { boundaryEndpoint, reverseEndpoint } from "./geo/endpoints";
import { islandEndpoints } from "./islands/endpoints";
import { nikEndpoint } from "./nik/endpoints";
import { postalEndpoint } from "./postal/endpoints";
import { detailEndpoint, regionEndpoints } from "./regions/endpoints";
import { searchEndpoint } from "./search/endpoints";

export const wilayahEndpoints = [
  ...regionEndpoints,
  searchEndpoint,
  reverseEndpoint,
  postalEndpoint,
  ...islandEndpoints,
  nikEndpoint,
  boundaryEndpoint,
  // Last: routes match in registration order, and `/wilayah/:id` would take /wilayah/search, /wilayah/reverse, /wilayah/pulau.
  detailEndpoint,
];
