// What the server refused to delete because something still uses it (409 with a report per item), and
// the admin's way to delete those anyway. Part of every media library.

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
