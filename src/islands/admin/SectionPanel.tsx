// The section panel (SPEC.md 2.5): a picker of the namespace's sections shown as "title - order: n",
// title and order fields, and Add, Update, Delete. A section that still holds posts is not deleted: the
// server's refusal is shown with the choice of a section to move the posts to (docs/content-api.md).
import { useId, useState } from 'react';
import { NAMESPACE_TITLES } from '../../lib/posts.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Field } from '../ui/Field.tsx';
import { Message } from '../ui/Message.tsx';
import type { FieldErrors, FormMessage } from '../ui/form-errors.ts';
import { deleteSection, saveSection, type Namespace, type Section } from './content-api.ts';
import { formFailure, successNotice } from './notices.ts';
import { HARD_DELETE_WARNING, type Confirm } from '../ui/use-confirm.tsx';

/**
 * SPEC.md 2.5 titles the panel 'Add/edit/delete Tutorial Sections' on every posts screen (the original
 * reused one label); here it names the screen's own sections, which gives exactly that title on tutorials.
 */
export function sectionPanelTitle(ns: Namespace): string {
  const noun = ns === 'tutorials' ? 'Tutorial' : NAMESPACE_TITLES[ns];
  return `Add/edit/delete ${noun} Sections`;
}

export function sectionOptionLabel(section: Pick<Section, 'title' | 'order'>): string {
  return `${section.title} - order: ${section.order}`;
}

const FIELDS = ['title', 'order', 'id', 'move_to_section_id'] as const;

interface SectionPanelProps {
  ns: Namespace;
  open: boolean;
  onClose: () => void;
  sections: Section[];
  /** Reloads the sections (and posts) after a change; resolves when they are in. */
  onChanged: () => Promise<void>;
  confirm: Confirm;
  onWrite: () => void;
}

export function SectionPanel(props: SectionPanelProps) {
  // The dialog renders its content only while open, so each opening starts with empty fields.
  return (
    <Dialog title={sectionPanelTitle(props.ns)} open={props.open} onClose={props.onClose}>
      <SectionPanelBody {...props} />
    </Dialog>
  );
}

function SectionPanelBody({ ns, sections, onChanged, confirm, onWrite }: SectionPanelProps) {
  const id = useId();
  const [pickedId, setPickedId] = useState<number | null>(null);
  const [title, setTitle] = useState('');
  const [order, setOrder] = useState('0');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [notice, setNotice] = useState<FormMessage | null>(null);
  const [refusal, setRefusal] = useState<{ sectionId: number } | null>(null);
  const [moveTo, setMoveTo] = useState('');

  const pick = (value: string) => {
    const section = sections.find((entry) => String(entry.id) === value) ?? null;
    setPickedId(section?.id ?? null);
    setTitle(section?.title ?? '');
    setOrder(String(section?.order ?? 0));
    setErrors({});
    setRefusal(null);
  };

  const fail = (error: unknown) => {
    const failure = formFailure(error, FIELDS);
    setErrors(failure.errors);
    setNotice(failure.notice);
  };

  const save = async (mode: 'add' | 'update') => {
    if (mode === 'update' && pickedId === null) return setNotice({ text: 'Choose the section to update first.', tone: 'error' });
    try {
      const answer = await saveSection(ns, mode === 'add' ? null : pickedId, { title, order });
      onWrite();
      setErrors({});
      setRefusal(null);
      setNotice(successNotice(answer, mode === 'add' ? 'Section created.' : 'Section updated.'));
      await onChanged();
      setPickedId(answer.section.id);
      setTitle(answer.section.title);
      setOrder(String(answer.section.order));
    } catch (error) {
      fail(error);
    }
  };

  const remove = async (moveToId?: number) => {
    const section = sections.find((entry) => entry.id === pickedId);
    if (!section) return setNotice({ text: 'Choose the section to delete first.', tone: 'error' });
    if (moveToId === undefined && !(await confirm({ title: 'Delete section', message: `Delete the section "${section.title}"? ${HARD_DELETE_WARNING}`, confirmLabel: 'Delete' })))
      return;
    try {
      const answer = await deleteSection(ns, section.id, moveToId);
      onWrite();
      setErrors({});
      setRefusal(null);
      setNotice(successNotice(answer, 'Section deleted.'));
      pick('');
      await onChanged();
    } catch (error) {
      fail(error);
      // Refused because it holds posts: offer to move them (the server names the count in the message).
      const others = sections.filter((entry) => entry.id !== section.id);
      if (formFailure(error, ['id']).errors.id && others.length > 0) {
        setRefusal({ sectionId: section.id });
        setMoveTo(String(others[0]?.id ?? ''));
      }
    }
  };

  const others = sections.filter((entry) => entry.id !== refusal?.sectionId);

  return (
    <form className="form section-panel" onSubmit={(event) => event.preventDefault()} noValidate>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-picker`}>
          Section
        </label>
        <select id={`${id}-picker`} className="field__control" value={pickedId === null ? '' : String(pickedId)} onChange={(event) => pick(event.target.value)} data-autofocus="">
          <option value="">New section</option>
          {sections.map((section) => (
            <option key={section.id} value={section.id}>
              {sectionOptionLabel(section)}
            </option>
          ))}
        </select>
      </div>
      <Field label="Title" name="title" value={title} onChange={setTitle} error={errors.title} />
      <Field label="Order" name="order" value={order} onChange={setOrder} error={errors.order} inputMode="numeric" />
      <Message message={notice} id={`${id}-notice`} />
      {refusal && (
        <div className="section-panel__move">
          <div className="field">
            <label className="field__label" htmlFor={`${id}-move`}>
              Move its posts to
            </label>
            <select id={`${id}-move`} className="field__control" value={moveTo} onChange={(event) => setMoveTo(event.target.value)}>
              {others.map((section) => (
                <option key={section.id} value={section.id}>
                  {sectionOptionLabel(section)}
                </option>
              ))}
            </select>
            {errors.move_to_section_id && <p className="field__error">{errors.move_to_section_id}</p>}
          </div>
          <button type="button" className="button button--danger" onClick={() => void remove(Number(moveTo))}>
            Move posts and delete
          </button>
        </div>
      )}
      <p className="form__actions">
        <button type="button" className="button" onClick={() => void save('add')}>
          Add
        </button>
        <button type="button" className="button button--secondary" onClick={() => void save('update')} aria-disabled={pickedId === null || undefined}>
          Update
        </button>
        <button type="button" className="button button--danger" onClick={() => void remove()} aria-disabled={pickedId === null || undefined}>
          Delete
        </button>
      </p>
    </form>
  );
}
