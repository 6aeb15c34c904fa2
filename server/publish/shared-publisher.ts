// The publish queue seen from every serving process (docs/decisions/0022-one-process-model.md). Only the
// primary builds; any process may take the admin's write that needs a build, and any process may answer
// the admin's next look at GET /api/admin/publish. The islands rely on one promise (docs/content-api.md):
// a write schedules its build before it answers, so the status reads 'building' from that moment until the
// build that includes it has finished. In-process messages alone could not keep that promise (the next
// look may reach another process before the primary heard of the write), so the shared part lives in the
// database, written synchronously:
// - `publish.requested`: a counter every process bumps when it schedules, in the request that asks;
// - `publish.fullRequested`: a second counter bumped with the first when the request asks for a full build
//   (the admin's "publish now", docs/decisions/0044-incremental-publish.md), so that wish survives the hop;
// - `publish.status`: the primary's status() after each change, with the counter values it has taken up.
// A request the primary has not taken up yet reads as 'building'. The primary takes requests up when a
// process tells it (IPC, at once) and on a timer, so a lost message or a crash costs a delay, never a build.
import type { Db } from '../db/client.ts';
import { getSetting, incrementCounterSetting, setSetting } from '../db/queries/settings.ts';
import type { Logger } from '../log.ts';
import { createPublisher, type PublisherOptions } from './publisher.ts';
import type { Publisher, PublishStatus } from './types.ts';

const REQUESTED_KEY = 'publish.requested';
const FULL_REQUESTED_KEY = 'publish.fullRequested';
const STATUS_KEY = 'publish.status';
/** How often a process waiting in whenIdle() reads the shared status again. */
const IDLE_POLL_MS = 100;

interface SharedStatus extends PublishStatus {
  /** The value of the request counter the primary had taken up when it wrote this. */
  takenUp: number;
  /** The value of the full-build counter it had taken up (absent in a status written before it existed). */
  fullTakenUp?: number;
}

const NO_STATUS: SharedStatus = { state: 'idle', pending: false, currentBuildId: null, lastSuccess: null, lastFailure: null, takenUp: 0 };

function readRequested(db: Db): number {
  return Number(getSetting(db, REQUESTED_KEY) ?? '0');
}

function readFullRequested(db: Db): number {
  return Number(getSetting(db, FULL_REQUESTED_KEY) ?? '0');
}

function readStored(db: Db): SharedStatus {
  const stored = getSetting(db, STATUS_KEY);
  return stored ? (JSON.parse(stored) as SharedStatus) : NO_STATUS;
}

/** What any process tells an admin: the primary's last status, or 'building' while a request waits for the primary. */
export function readSharedPublishStatus(db: Db): PublishStatus {
  const { takenUp, fullTakenUp: _fullTakenUp, ...status } = readStored(db);
  if (readRequested(db) <= takenUp) return status;
  // The waiting request becomes one more build after a running one, or the next build.
  return { ...status, state: 'building', pending: status.state === 'building' || status.pending };
}

/**
 * The Publisher of a process that does not build: schedule() records the request in the database and tells
 * the primary (`notifyPrimary`, an IPC message); status() reads the shared status.
 */
export function createRemotePublisher(options: { db: Db; log: Logger; notifyPrimary: (reason: string) => void }): Publisher {
  const { db, log } = options;
  const status = () => readSharedPublishStatus(db);
  return {
    schedule(reason, scheduleOptions) {
      try {
        // The full-build counter first: a primary that sees the request sees its kind with it.
        if (scheduleOptions?.full) incrementCounterSetting(db, FULL_REQUESTED_KEY);
        incrementCounterSetting(db, REQUESTED_KEY);
        options.notifyPrimary(reason);
      } catch (error) {
        log.error('publish: could not schedule a build', error);
      }
    },
    status,
    async whenIdle() {
      while (status().state === 'building') await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
    },
  };
}

export interface PublishRequestIntake {
  /** Writes the primary publisher's status for the other processes (its onStatusChange). */
  share(status: PublishStatus): void;
  /** Takes up the requests other processes recorded since the last look: one schedule() for all of them. */
  takeUp(reason?: string): void;
}

/**
 * The primary's side: shares its publisher's status and turns recorded requests into builds. Requests left
 * by a previous run that stopped before taking them up are taken up at the first look.
 */
export function createPublishRequestIntake(db: Db, getPublisher: () => Publisher): PublishRequestIntake {
  const stored = readStored(db);
  let takenUp = stored.takenUp;
  let fullTakenUp = stored.fullTakenUp ?? 0;
  // The previous primary ended with a build running or queued (killed, or past its stop deadline): what it
  // had taken up never went live, so the first look builds again (docs/decisions/0033-graceful-stop.md).
  let interrupted = stored.state === 'building' || stored.pending;
  const share = (status: PublishStatus) => setSetting(db, STATUS_KEY, JSON.stringify({ ...status, takenUp, fullTakenUp } satisfies SharedStatus));
  return {
    share,
    takeUp(reason = 'requested by another serving process') {
      const requested = readRequested(db);
      if (requested <= takenUp && !interrupted) return;
      interrupted = false;
      takenUp = Math.max(takenUp, requested);
      const fullRequested = readFullRequested(db);
      const full = fullRequested > fullTakenUp;
      fullTakenUp = Math.max(fullTakenUp, fullRequested);
      // schedule() reports 'building' through share(), with the new takenUp, before this returns.
      getPublisher().schedule(reason, full ? { full: true } : undefined);
    },
  };
}

/**
 * The primary's publisher: the real build queue, its status shared through the database, and `takeUp`
 * for the requests the other processes record (call it on their IPC message and on a timer).
 */
export function createPrimaryPublisher(options: Omit<PublisherOptions, 'onStatusChange'>): {
  publisher: Publisher;
  takeUp: (reason?: string) => void;
  stop: (deadline: number) => Promise<void>;
  /** The live build's search index, when the last run ended before making it (the publisher's resumeSearchIndex). */
  resumeSearchIndex: () => void;
} {
  const { db, log } = options;
  let stopping = false;
  const intake = createPublishRequestIntake(db, () => publisher);
  const publisher = createPublisher({ ...options, onStatusChange: (status) => intake.share(status) });
  intake.share(publisher.status());

  /**
   * The server is stopping (docs/decisions/0033-graceful-stop.md): no request is taken up any more and no
   * new build starts; a running build may finish until `deadline` (a Date.now() value). One that does not,
   * one that failed meanwhile (its process may have had the signal too) and any request that came after it
   * are recorded as a request, so the next start builds. Abandoning is safe: `builds/current` is switched by
   * one atomic rename after a build is complete and loaded, so the live build stays whole.
   */
  async function stop(deadline: number): Promise<void> {
    stopping = true;
    publisher.stop();
    const before = publisher.status();
    if (before.state === 'building') log.info(`publish: waiting up to ${Math.max(0, Math.round((deadline - Date.now()) / 1000))} s for the running build`);
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      publisher.whenIdle().then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now())))),
    ]);
    clearTimeout(timer);
    const after = publisher.status();
    const failedNow = before.state === 'building' && after.lastFailure !== before.lastFailure;
    if (!finished || after.pending || failedNow) {
      incrementCounterSetting(db, REQUESTED_KEY);
      const why = !finished
        ? 'the running build was abandoned at the deadline'
        : failedNow
          ? 'the running build failed during the stop'
          : 'a change came in during the stop';
      log.info(`publish: ${why}; the next start builds (the live build is unchanged)`);
    } else if (before.state === 'building') {
      log.info('publish: the running build finished');
    }
  }

  return {
    publisher,
    takeUp: (reason) => (stopping ? undefined : intake.takeUp(reason)),
    stop,
    // The publisher itself does nothing once stopped.
    resumeSearchIndex: () => publisher.resumeSearchIndex(),
  };
}
