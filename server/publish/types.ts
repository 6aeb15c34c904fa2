// The contract between content writers (every route that changes published content) and the publish
// pipeline: writers only ever call schedule(); the pipeline decides when and how to build.

export type PublishState = 'idle' | 'building' | 'failed';

export interface PublishStatus {
  state: PublishState;
  /** True when a change arrived during the running build: exactly one more build follows it. */
  pending: boolean;
  /**
   * The search index of the live pages: 'updating' right after a publish went live (an incremental publish
   * indexes after "Live"), 'updated' once it follows them ("Search updated"), 'stale' when making it failed
   * (the pages stay live; the next publish indexes again). Absent before any publish.
   */
  search?: 'updating' | 'updated' | 'stale';
  currentBuildId: string | null;
  lastSuccess: { at: string; durationMs: number; buildId: string } | null;
  lastFailure: { at: string; durationMs: number; log: string } | null;
}

export interface Publisher {
  /** Asks for a publish; coalesces with any build that is already queued. Never throws. */
  schedule(reason: string, options?: { full?: boolean }): void;
  status(): PublishStatus;
  /** Resolves when no build is running or queued (used by tests and graceful shutdown). */
  whenIdle(): Promise<void>;
}
