// /admin's loader (docs/product/admin.md): the console (React and every admin tool, its own chunk) is
// mounted the one guarded-island way (guarded-island.ts), only once the current-user check says an admin
// is here.
import { mountGuardedIsland, notePanel } from './guarded-island.ts';
import { isAdminUser, mustEnrollTwoFactor } from '../stores/session.ts';
// Only the URL: a sheet imported from the console's modules would be linked from every public page.
import adminConsoleStylesUrl from '../styles/admin-console.css?url';

const container = document.querySelector<HTMLElement>('#admin-app[data-island]');

if (container) {
  mountGuardedIsland({
    container,
    admits: isAdminUser,
    load: () => import('../islands/admin-console/AdminConsole.tsx').then((module) => module.mountAdminConsole),
    stylesheets: [adminConsoleStylesUrl],
    loadingNote: () => notePanel('Loading the admin screen…'),
    failedText: 'The admin screen could not be loaded. Please check your connection and reload the page.',
    endedNote: (login) => notePanel('Your session has ended. Log in as an administrator to use this screen.', login),
    // The navigation guard sends an admin who must turn two-factor on first to the dashboard
    // (docs/product/accounts.md#two-factor-sign-in); the console, whose every call would be refused, is not loaded.
    redirectedNote: (user) =>
      mustEnrollTwoFactor(user) ? notePanel('Two-factor sign-in is required for administrators. Turn it on in your dashboard.') : undefined,
  });
}
