import { urlFor, USER } from "./postgres-connection.js";

/** The embedded server could not be started or stopped; the message says why, with PostgreSQL's own words. */
export class EmbeddedPostgresError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EmbeddedPostgresError";
  }

  /** What a command prints on the terminal (stderr) for this error; never given to the logger. */
  forTerminal(): string {
    return this.message;
  }
}

/**
 * The embedded server of a data directory is in use by another live process of the service. Its message
 * (what errorSummary or a log line would carry) names the server without a password; the DATABASE_URL to
 * paste, which needs it (the server asks for one), is only in `forTerminal()`, which start-up errors print.
 */
export class EmbeddedPostgresInUseError extends EmbeddedPostgresError {
  /** Private (#): never in JSON.stringify of the error, nor in its message. */
  readonly #password: string;

  constructor(readonly dataDir: string, readonly ownerPid: number | null, readonly ownerLabel: string, readonly port: number, password: string) {
    super(
      `The embedded PostgreSQL in ${dataDir} is in use by another process (pid ${ownerPid ?? "unknown"}, ${ownerLabel}). ` +
        `Stop that process first; to run another process on the same database, set its DATABASE_URL to that server ` +
        `(127.0.0.1:${port}, database mf, user ${USER}).`,
    );
    this.name = "EmbeddedPostgresInUseError";
    this.#password = password;
  }

  override forTerminal(): string {
    return `${this.message}\n  DATABASE_URL=${urlFor(this.port, "mf", this.#password)}`;
  }
}
