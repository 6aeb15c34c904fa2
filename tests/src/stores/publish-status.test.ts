// The site-wide publish-status store: after a write, the first status that is not 'building' is that
// write's outcome (docs/admin-api.md, `PublishStatus`), and every status read feeds the shared store.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/lib/api/request.ts';
import type * as PublishStatusModule from '../../../src/lib/api/publish.ts';
import type { PublishStatus } from '../../../src/lib/api/publish.ts';

const fetchPublishStatus = vi.fn<() => Promise<PublishStatus>>();
vi.mock('../../../src/lib/api/publish.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof PublishStatusModule>()),
  fetchPublishStatus: () => fetchPublishStatus(),
}));

const { $publishPhase, followPublish, FOLLOW_GIVE_UP_MS, FOLLOW_POLL_MS, publishStore } = await import('../../../src/stores/publish-status.ts');

const status = (state: PublishStatus['state'], extra: Partial<PublishStatus> = {}): PublishStatus => ({
  state,
  pending: false,
  search: 'updated',
  current_build_id: 'b1',
  last_success: { at: '2026-01-01T10:00:00.000Z', duration_ms: 4000, build_id: 'b1' },
  last_failure: null,
  ...extra,
});

describe('following the publish a write scheduled', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    fetchPublishStatus.mockReset();
    $publishPhase.set({ kind: 'none' });
  });
  afterEach(() => vi.useRealTimers());

  it('says Publishing at once, waits through building, then Live; the shared store gets each answer', async () => {
    fetchPublishStatus.mockResolvedValueOnce(status('building')).mockResolvedValueOnce(status('idle'));
    followPublish();
    expect($publishPhase.get()).toEqual({ kind: 'publishing' });
    await vi.advanceTimersByTimeAsync(FOLLOW_POLL_MS);
    expect($publishPhase.get()).toEqual({ kind: 'publishing' });
    expect(publishStore.$store.value?.value?.state).toBe('building');
    await vi.advanceTimersByTimeAsync(FOLLOW_POLL_MS);
    expect($publishPhase.get()).toEqual({ kind: 'live', at: '2026-01-01T10:00:00.000Z', search: 'updated' });
    expect(publishStore.$store.value?.value?.state).toBe('idle');
    await vi.advanceTimersByTimeAsync(10 * FOLLOW_POLL_MS);
    expect(fetchPublishStatus).toHaveBeenCalledTimes(2);
  });

  it('says Live while the search index is still being made, then Search updated, and stops there', async () => {
    fetchPublishStatus
      .mockResolvedValueOnce(status('idle', { search: 'updating' }))
      .mockResolvedValueOnce(status('idle', { search: 'updating' }))
      .mockResolvedValueOnce(status('idle', { search: 'updated' }));
    followPublish();
    await vi.advanceTimersByTimeAsync(FOLLOW_POLL_MS / 4);
    const live = $publishPhase.get();
    expect(live).toEqual({ kind: 'live', at: '2026-01-01T10:00:00.000Z', search: 'updating' });
    await vi.advanceTimersByTimeAsync(FOLLOW_POLL_MS);
    // The same answer again leaves the phase as it was: nothing new to announce.
    expect($publishPhase.get()).toBe(live);
    await vi.advanceTimersByTimeAsync(FOLLOW_POLL_MS);
    expect($publishPhase.get()).toEqual({ kind: 'live', at: '2026-01-01T10:00:00.000Z', search: 'updated' });
    await vi.advanceTimersByTimeAsync(10 * FOLLOW_POLL_MS);
    expect(fetchPublishStatus).toHaveBeenCalledTimes(3);
  });

  it('stops following when the search index could not be made: the pages are live, the index stale', async () => {
    fetchPublishStatus.mockResolvedValueOnce(status('idle', { search: 'updating' })).mockResolvedValue(status('idle', { search: 'stale' }));
    followPublish();
    await vi.advanceTimersByTimeAsync(FOLLOW_POLL_MS / 4);
    expect($publishPhase.get()).toMatchObject({ kind: 'live', search: 'updating' });
    await vi.advanceTimersByTimeAsync(FOLLOW_POLL_MS);
    expect($publishPhase.get()).toEqual({ kind: 'live', at: '2026-01-01T10:00:00.000Z', search: 'stale' });
    await vi.advanceTimersByTimeAsync(10 * FOLLOW_POLL_MS);
    expect(fetchPublishStatus).toHaveBeenCalledTimes(2);
  });

  it('shows a failed build with its log', async () => {
    fetchPublishStatus.mockResolvedValue(
      status('failed', { last_failure: { at: '2026-01-01T10:01:00.000Z', duration_ms: 900, log: 'error: bad frontmatter' } }),
    );
    followPublish();
    await vi.advanceTimersByTimeAsync(FOLLOW_POLL_MS);
    expect($publishPhase.get()).toEqual({ kind: 'failed', log: 'error: bad frontmatter' });
  });

  it('ignores an answer meant for an older write: a newer write restarts the watch', async () => {
    let answerOld: (value: PublishStatus) => void = () => undefined;
    fetchPublishStatus.mockReturnValueOnce(new Promise((resolve) => (answerOld = resolve))).mockResolvedValue(status('building'));
    followPublish();
    await vi.advanceTimersByTimeAsync(FOLLOW_POLL_MS / 4);
    followPublish();
    answerOld(status('idle'));
    await vi.advanceTimersByTimeAsync(0);
    expect($publishPhase.get()).toEqual({ kind: 'publishing' });
  });

  it('stops when the session is gone, and gives up after a while', async () => {
    fetchPublishStatus.mockRejectedValueOnce(new ApiError(401, { message: 'Unauthenticated.' }));
    followPublish();
    await vi.advanceTimersByTimeAsync(FOLLOW_POLL_MS);
    expect($publishPhase.get()).toEqual({ kind: 'none' });

    fetchPublishStatus.mockResolvedValue(status('building'));
    followPublish();
    await vi.advanceTimersByTimeAsync(FOLLOW_GIVE_UP_MS + 2 * FOLLOW_POLL_MS);
    expect($publishPhase.get()).toEqual({ kind: 'unknown' });
  });
});
