// What the server refused to delete because something still uses it (409 with a report per item), and
// the admin's way to delete those anyway. Shared by the image managers.

export interface RefusedDeletion {
  ids: number[];
  report: { id: number; message: string }[];
}

export function RefusedDeletions({ refused, onDeleteAnyway }: { refused: RefusedDeletion | null; onDeleteAnyway: (ids: number[]) => void }) {
  if (!refused || refused.report.length === 0) return null;
  return (
    <div className="image-manager__refused">
      <ul>
        {refused.report.map((entry) => (
          <li key={entry.id}>{entry.message}</li>
        ))}
      </ul>
      <button type="button" className="button button--small button--danger" onClick={() => onDeleteAnyway(refused.ids)}>
        Delete anyway
      </button>
    </div>
  );
}

/** `ticked` with `id` ticked (`on`) or not: a new set, for a state update. */
export function withTicked(ticked: ReadonlySet<number>, id: number, on: boolean): ReadonlySet<number> {
  const next = new Set(ticked);
  if (on) next.add(id);
  else next.delete(id);
  return next;
}
