// What every router receives: the configuration and the long-lived services, built once at start
// (server/main.ts) or per test (tests/helpers). Routers never reach for globals.
import type { Config } from './env.ts';
import type { Db } from './db/client.ts';
import type { Logger } from './log.ts';
import type { Publisher } from './publish/types.ts';
import type { Mailer } from './mail/transport.ts';
import type { User } from './db/schema.ts';
import type { ObjectStore } from './storage/object-store/index.ts';
import type { Keyring } from './signing/signing-keys.ts';

/** An API token as the /api/v1/ handlers see it: never the token itself. */
export interface ApiTokenCredential {
  id: number;
  name: string;
  scopes: readonly string[];
  createdBy: number | null;
}

/** The background jobs the primary runs that work can be queued for (server/main.ts). */
export type BackgroundJob = 'mailing' | 'webhooks';

export interface AppContext {
  config: Config;
  db: Db;
  log: Logger;
  publisher: Publisher;
  mailer: Mailer;
  /** Milliseconds since the epoch; injectable so expiry and rate limits can be tested with a fake clock. */
  now: () => number;
  /**
   * The license signing keys as this process sees them now (re-read after a rotation; docs/licensing.md):
   * a function, not a value, so `npm run license-keys -- rotate` takes effect without a restart.
   */
  keyring: () => Keyring;
  /** The keys that sign release files for the update feeds (issue 25; docs/updates.md), read the same way. */
  updateKeyring: () => Keyring;
  /** Where stored files live: the local directories or a bucket (docs/decisions/0050-object-storage.md). */
  storage: ObjectStore;
  /**
   * Work for a background job was committed: the primary's job looks at once instead of at its next tick
   * (a mailing starts in milliseconds, not within five seconds; a webhook is sent as its change commits, not
   * within two). From another serving process it travels over the cluster's channel
   * (server/process/messages.ts). It always takes effect on a later turn of the event loop, so it may be
   * called inside a write transaction (synchronous here): by then the work has committed, or rolled back and
   * the job finds nothing. Only a nudge: the work is in the database, and the job's own timer finds it if
   * the nudge is lost.
   */
  wake: (job: BackgroundJob) => void;
}

/** Hono environment: what middleware puts on the request context for the handlers after it. */
export interface AppEnv {
  Variables: {
    user: User | null;
    /** SHA-256 id of the current session, when there is one. */
    sessionId: string | null;
    /**
     * The user is an admin who must turn two-factor on first (docs/product/accounts.md#two-factor-sign-in):
     * every admin route refuses them until then.
     */
    twoFactorEnrollmentRequired: boolean;
    /** On /api/v1/ only: the API token the call came with (docs/integrations.md#api-tokens). */
    apiToken?: ApiTokenCredential;
  };
}
