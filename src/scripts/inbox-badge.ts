// The admins' unread-inbox badge in the nav bar (docs/product/admin.md#inbox): a link to /admin#inbox with the count, from the
// session answer the nav bar loads anyway (no request of its own). Nothing for other users or a count of 0.
export function inboxBadge(count: number): HTMLAnchorElement | null {
  if (count <= 0) return null;
  const badge = document.createElement('a');
  badge.className = 'inbox-badge';
  badge.href = '/admin#inbox';
  badge.dataset.inboxBadge = '';
  const shown = count > 99 ? '99+' : String(count);
  badge.textContent = shown;
  // The number alone says nothing to a screen reader or on hover.
  const label = `Inbox: ${count} unread`;
  badge.setAttribute('aria-label', label);
  badge.title = label;
  return badge;
}
