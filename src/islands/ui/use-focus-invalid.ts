// After a failed submit, focus goes to the first field the server refused, so keyboard and screen-reader
// users land on the problem; with none marked, to `fallback` (the notice, a radio group) if the form has
// one. Done in an effect, after React has committed the error state: a requestAnimationFrame started in
// the submit handler can run before that commit when the update comes after an await, and then finds no
// invalid field.
import { useEffect, type RefObject } from 'react';

export function useFocusFirstInvalid(form: RefObject<HTMLFormElement | null>, failures: number, fallback?: () => HTMLElement | null | undefined): void {
  useEffect(() => {
    if (failures === 0) return;
    const target = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? fallback?.();
    target?.focus();
    // Only a new failure moves focus; `fallback` is a fresh closure each render.
  }, [failures, form]);
}
