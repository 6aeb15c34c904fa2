// Starts the admin overlay on the pages that have one (the posts screens, home, the legal pages and /contact) when, and only
// when, the current user is an admin (docs/product/reading.md#home-for-admins, docs/product/reading.md#posts-screens-for-admins; docs/engineering.md#habits, habit 6). It asks nothing
// itself: the nav bar's account script decides who is reading (no request at all without the signed_in
// hint cookie, GET /api/user otherwise) and puts the answer in the $user store. Only for an admin is the
// overlay's chunk imported, so readers and other users download none of its code.
import { $user, isAdminUser } from '../stores/session';
import { onEveryPage } from './page-lifecycle';
import { loadIslandStyles } from './account-root.ts';
import { loadStylesheet } from './load-stylesheet.ts';
// Only the URL: importing the sheet from the overlay's modules made Astro link it from every page.
import contentAdminStylesUrl from '../styles/content-admin.css?url';

/** The overlay's code and its styles arrive together, so it never shows unstyled. */
function withStyles<T>(code: Promise<T>): Promise<T> {
  return Promise.all([code, loadIslandStyles(), loadStylesheet(contentAdminStylesUrl)]).then(([module]) => module);
}

type Unmount = () => void;
type Mounter = (page: HTMLElement) => Unmount;

/** The overlay a page has, if any: its element and how to load the overlay's chunk. */
function overlayFor(): { page: HTMLElement; load: () => Promise<Mounter> } | null {
  const posts = document.querySelector<HTMLElement>('[data-posts-page]');
  if (posts) return { page: posts, load: () => withStyles(import('../islands/admin/PostsOverlay.tsx')).then((module) => module.mountPostsOverlay) };
  // The legal pages and the contact details (issue 28, section 1), edited in place the same way.
  const legal = document.querySelector<HTMLElement>('[data-legal-page]');
  if (legal) return { page: legal, load: () => withStyles(import('../islands/admin/LegalPageOverlay.tsx')).then((module) => module.mountLegalPageOverlay) };
  const contact = document.querySelector<HTMLElement>('[data-contact-details]');
  if (contact)
    return { page: contact, load: () => withStyles(import('../islands/admin/ContactDetailsOverlay.tsx')).then((module) => module.mountContactDetailsOverlay) };
  const main = document.querySelector<HTMLElement>('main[data-reading]');
  if (main && location.pathname === '/')
    return { page: main, load: () => withStyles(import('../islands/admin/HomeOverlay.tsx')).then((module) => module.mountHomeOverlay) };
  return null;
}

onEveryPage(() => {
  const overlay = overlayFor();
  if (!overlay) return;
  let unmount: Unmount | undefined;
  let loading = false;
  let gone = false;

  const stop = $user.subscribe((user) => {
    if (isAdminUser(user)) {
      if (unmount || loading) return;
      loading = true;
      overlay
        .load()
        .then((mount) => {
          // The page may have been swapped, or the admin logged out, while the chunk loaded.
          if (!gone && isAdminUser($user.get())) unmount = mount(overlay.page);
        })
        .catch((error: unknown) => console.error('Could not load the admin tools', error))
        .finally(() => {
          loading = false;
        });
    } else if (unmount) {
      // Logged out (or the session ended): the page goes back to what readers see.
      unmount();
      unmount = undefined;
    }
  });

  return () => {
    gone = true;
    stop();
    unmount?.();
    unmount = undefined;
  };
});
