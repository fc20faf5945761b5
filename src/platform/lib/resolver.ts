import { promises as dns } from "node:dns";

/** Looks a host name up: every address it resolves to. Tests stand a resolver of their own in for the outside world. */
export type Resolver = (hostname: string) => Promise<string[]>;

/** The system's resolver (getaddrinfo), every address in the order it answers. */
export const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
};
