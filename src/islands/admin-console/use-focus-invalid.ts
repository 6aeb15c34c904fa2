// After a failed submit, focus goes to the first field the server refused, so keyboard and screen-reader
// users land on the problem. Done in an effect, after React has committed the error state: a
// requestAnimationFrame started in the submit handler (ui/form-errors.ts's focusFirstInvalid) can run
// before that commit when the update comes after an await, and then finds no invalid field.
import { useEffect, type RefObject } from 'react';
import type { FieldErrors } from '../ui/form-errors.ts';

export function useFocusFirstInvalid(form: RefObject<HTMLFormElement | null>, errors: FieldErrors, fallback?: () => HTMLElement | null | undefined): void {
  useEffect(() => {
    if (Object.keys(errors).length === 0) return;
    const target = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? fallback?.();
    target?.focus();
    // Only a new errors object (a new failed submit) moves focus; `fallback` is a fresh closure each render.
  }, [errors, form]);
}
