// How a form control names its notes for assistive technology: `${id}-hint` and `${id}-error` under it,
// listed in aria-describedby. Free of React: the islands' fields (Field.tsx) and the account dialogs'
// (src/scripts/account-dialogs/form-view.ts) mark them up alike.

/** The ids a control's aria-describedby names: its hint and its error, where present. */
export function describedByOf(id: string, hint: string | undefined, error: string | undefined): string | undefined {
  return [hint ? `${id}-hint` : undefined, error ? `${id}-error` : undefined].filter(Boolean).join(' ') || undefined;
}
