// The one "could not be loaded" line with its Try again button, for lists and forms that load their data when
// shown (useLoaded): `what` as useLoaded names it, such as "the banned domains".
export function LoadFailed({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <p className="form-message__text form-message__text--error">
      {`${what[0]?.toUpperCase() ?? ''}${what.slice(1)} could not be loaded.`}{' '}
      <button type="button" className="admin-link-button" onClick={onRetry}>
        Try again
      </button>
    </p>
  );
}
