// The publish status as the admin's publish panel and toast read it.
import type { PublishStatus } from '../../publish/types.ts';

export function presentPublishStatus(status: PublishStatus) {
  return {
    state: status.state,
    pending: status.pending,
    // 'updating' once the pages are live ("Live") until the search index follows them ("Search updated");
    // 'stale' when making it failed (the next publish tries again); null before the first publish of this
    // run, or with a runner that indexes before going live.
    search: status.search ?? null,
    current_build_id: status.currentBuildId,
    last_success: status.lastSuccess && { at: status.lastSuccess.at, duration_ms: status.lastSuccess.durationMs, build_id: status.lastSuccess.buildId },
    last_failure: status.lastFailure && { at: status.lastFailure.at, duration_ms: status.lastFailure.durationMs, log: status.lastFailure.log },
  };
}
