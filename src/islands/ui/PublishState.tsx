// Where the admin's last change stands for readers, beside the admin tools of the content pages and the
// downloads page: 'Publishing…' while the static site is rebuilt with the change, then 'Live' (and
// 'Search updated' once the search index has followed the pages), or the failure with the end of the build
// log (docs/architecture.md on publishing). A live region that exists
// from the start, so each change is announced (politely). It reads the site-wide store, so a watch
// started on one page shows on the next. When its place in the page is scrolled out of view (a save
// scrolls to the saved item), the same element floats at the window's corner as a toast, so the state
// stays in view wherever the admin is (issue 14, part 2); it is one element, so it is announced once.
import { useEffect, useRef, useState, type RefObject } from 'react';
import { formatTime } from '../../lib/format.ts';
import { usePublishPhase, type PublishPhase } from '../../stores/publish-status.ts';

/** How long 'Live' keeps floating once the publish is done, before it waits in its place again. */
export const LIVE_TOAST_MS = 6000;
/** The sticky site header covers the top of the window: a status under it is not in view. */
const HEADER_ALLOWANCE_PX = 100;

/**
 * While the toast floats, how far the site footer reaches into the window from below: the toast rises by as
 * much, so it never covers the footer's links (issue 28, 2.17).
 */
function useFooterClearance(floating: boolean): number {
  const [clearance, setClearance] = useState(0);
  useEffect(() => {
    const footer = document.querySelector<HTMLElement>('.site-footer');
    if (!floating || !footer) return;
    let frame = 0;
    const measure = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setClearance(Math.max(0, Math.round(window.innerHeight - footer.getBoundingClientRect().top))));
    };
    measure();
    window.addEventListener('scroll', measure, { passive: true });
    window.addEventListener('resize', measure);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', measure);
      window.removeEventListener('resize', measure);
    };
  }, [floating]);
  return floating ? clearance : 0;
}

/** Whether the status's own place in the page is out of view. */
function useOutOfView(): [RefObject<HTMLSpanElement | null>, boolean] {
  const anchor = useRef<HTMLSpanElement>(null);
  const [outOfView, setOutOfView] = useState(false);
  useEffect(() => {
    const element = anchor.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => setOutOfView(entry ? !entry.isIntersecting : false), {
      rootMargin: `-${HEADER_ALLOWANCE_PX}px 0px 0px 0px`,
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [anchor, outOfView];
}

/** 'Live' stays worth a toast for a few seconds; the other states while they last. */
function useWorthFloating(phase: PublishPhase): boolean {
  // The 'live' phase whose few seconds are over (each publish's outcome is a new object).
  const [spent, setSpent] = useState<PublishPhase | null>(null);
  useEffect(() => {
    if (phase.kind !== 'live') return;
    const timer = setTimeout(() => setSpent(phase), LIVE_TOAST_MS);
    return () => clearTimeout(timer);
  }, [phase]);
  return phase.kind === 'publishing' || phase.kind === 'failed' || phase.kind === 'unknown' || (phase.kind === 'live' && spent !== phase);
}

export function PublishState() {
  const phase = usePublishPhase();
  const [anchor, outOfView] = useOutOfView();
  const worthFloating = useWorthFloating(phase);
  const floating = outOfView && worthFloating;
  const clearance = useFooterClearance(floating);
  return (
    <>
      <span ref={anchor} className="publish-state__anchor" aria-hidden="true"></span>
      <div
        className={`publish-state publish-state--${phase.kind}${floating ? ' publish-state--floating' : ''}`}
        role="status"
        aria-live="polite"
        aria-atomic="true"
        data-publish-state={phase.kind}
        style={clearance > 0 ? { bottom: `calc(1rem + ${clearance}px)` } : undefined}
      >
        {phase.kind === 'publishing' && (
          <p className="publish-state__text">
            <span className="spinner spinner--small" aria-hidden="true"></span>
            Publishing…
          </p>
        )}
        {phase.kind === 'live' && (
          <>
            <p className="publish-state__text">
              Live<span className="publish-state__detail">{phase.at ? ` since ${formatTime(phase.at)}` : ''}: readers see this change.</span>
            </p>
            {phase.search === 'updating' && <p className="publish-state__search">Updating search…</p>}
            {phase.search === 'updated' && <p className="publish-state__search">Search updated.</p>}
            {phase.search === 'stale' && <p className="publish-state__search">Search not updated: it still finds the previous pages until the next publish.</p>}
          </>
        )}
        {phase.kind === 'failed' && (
          <>
            <p className="publish-state__text">Publishing failed: readers still see the previous version.</p>
            {phase.log && (
              <details className="publish-state__log">
                <summary>Build log (last lines)</summary>
                <pre>{phase.log}</pre>
              </details>
            )}
          </>
        )}
        {phase.kind === 'unknown' && <p className="publish-state__text">Still publishing: the admin screen shows the outcome.</p>}
      </div>
    </>
  );
}
