// /dashboard's loader (docs/product/accounts.md#dashboard): the dashboard island (React and the account
// screens, its own chunk) is mounted the one guarded-island way (guarded-island.ts), only once the
// current-user check says someone is signed in; a signed-out visitor downloads none of it.
import { mountGuardedIsland } from './guarded-island.ts';

const container = document.querySelector<HTMLElement>('#dashboard-app[data-island]');

function loadingNote(): HTMLElement {
  const note = document.createElement('p');
  note.className = 'empty-note';
  note.setAttribute('role', 'status');
  note.textContent = 'Loading your account…';
  return note;
}

function endedNote(login: HTMLButtonElement): HTMLElement {
  const panel = document.createElement('div');
  panel.className = 'result-panel';
  const text = document.createElement('p');
  text.textContent = 'Please login to see dashboard!';
  panel.append(text, login);
  return panel;
}

if (container) {
  mountGuardedIsland({
    container,
    admits: () => true,
    load: () => import('../islands/Dashboard.tsx').then((module) => module.mountDashboard),
    loadingNote,
    failedText: 'The dashboard could not be loaded. Please check your connection and reload the page.',
    endedNote,
  });
}
