/** Who is calling: the distributor an API client acts for, resolved from its bearer token. */
export interface Caller {
  distributorId: string;
  clientId: string;
}
