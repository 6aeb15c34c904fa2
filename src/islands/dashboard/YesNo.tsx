// docs/product/accounts.md#dashboard shows flags as YES / NO.
export function YesNo({ value }: { value: unknown }) {
  const yes = Boolean(value);
  return <span className={yes ? 'yes-no yes-no--yes' : 'yes-no yes-no--no'}>{yes ? 'YES' : 'NO'}</span>;
}
