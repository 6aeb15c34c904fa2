// The section panel (docs/product/reading.md#posts-screens): a picker of the namespace's sections shown as "title - order: n",
// title and order fields, and Add, Update, Delete. A section that still holds posts is not deleted: the
// server's refusal is shown with the choice of a section to move the posts to (docs/content-api.md).
import { useRef, useState } from 'react';
import { NAMESPACE_TITLES } from '../../lib/posts.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Field, SelectField } from '../ui/Field.tsx';
import { Message } from '../ui/Message.tsx';
import { HARD_DELETE_WARNING, type Confirm } from '../ui/use-confirm.tsx';
import { useFormSubmit } from '../ui/use-form-submit.ts';
import { deleteSection, saveSection, type Namespace, type Section } from '../../lib/api/posts.ts';
import { successNotice } from './notices.ts';

/**
 * docs/product/reading.md#posts-screens titles the panel 'Add/edit/delete Tutorial Sections' on every posts screen (the original
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

interface MoveChoiceProps {
  others: Section[];
  moveTo: string;
  onMoveTo: (value: string) => void;
  error: string | undefined;
  onMove: () => void;
}

/** Offered when a delete was refused because the section holds posts. */
function MoveChoice({ others, moveTo, onMoveTo, error, onMove }: MoveChoiceProps) {
  return (
    <div className="section-panel__move">
      <SelectField
        label="Move its posts to"
        name="move_to_section_id"
        value={moveTo}
        onChange={onMoveTo}
        options={others.map((section) => ({ value: section.id, label: sectionOptionLabel(section) }))}
        error={error}
      />
      <button type="button" className="button button--danger" onClick={onMove}>
        Move posts and delete
      </button>
    </div>
  );
}

function SectionPanelBody({ ns, sections, onChanged, confirm, onWrite }: SectionPanelProps) {
  const [pickedId, setPickedId] = useState<number | null>(null);
  const [title, setTitle] = useState('');
  const [order, setOrder] = useState('0');
  const [refusal, setRefusal] = useState<{ sectionId: number } | null>(null);
  const [moveTo, setMoveTo] = useState('');
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, { fields: FIELDS, messageAlways: true });

  const pick = (value: string) => {
    const section = sections.find((entry) => String(entry.id) === value) ?? null;
    setPickedId(section?.id ?? null);
    setTitle(section?.title ?? '');
    setOrder(String(section?.order ?? 0));
    form.clear();
    setRefusal(null);
  };

  const save = async (mode: 'add' | 'update') => {
    if (mode === 'update' && pickedId === null) return form.setMessage({ text: 'Choose the section to update first.', tone: 'error' });
    await form.run(async () => {
      const answer = await saveSection(ns, mode === 'add' ? null : pickedId, { title, order });
      onWrite();
      setRefusal(null);
      form.setMessage(successNotice(answer, mode === 'add' ? 'Section created.' : 'Section updated.'));
      await onChanged();
      setPickedId(answer.section.id);
      setTitle(answer.section.title);
      setOrder(String(answer.section.order));
    });
  };

  const remove = async (moveToId?: number) => {
    const section = sections.find((entry) => entry.id === pickedId);
    if (!section) return form.setMessage({ text: 'Choose the section to delete first.', tone: 'error' });
    if (
      moveToId === undefined &&
      !(await confirm({ title: 'Delete section', message: `Delete the section "${section.title}"? ${HARD_DELETE_WARNING}`, confirmLabel: 'Delete' }))
    )
      return;
    const failure = await form.run(async () => {
      const answer = await deleteSection(ns, section.id, moveToId);
      onWrite();
      setRefusal(null);
      pick('');
      form.setMessage(successNotice(answer, 'Section deleted.'));
      await onChanged();
    });
    // Refused because it holds posts: offer to move them (the server names the count in the message).
    const others = sections.filter((entry) => entry.id !== section.id);
    if (failure?.errors.id && others.length > 0) {
      setRefusal({ sectionId: section.id });
      setMoveTo(String(others[0]?.id ?? ''));
    }
  };

  const others = sections.filter((entry) => entry.id !== refusal?.sectionId);

  return (
    <form ref={formRef} className="form section-panel" onSubmit={(event) => event.preventDefault()} noValidate>
      <SelectField
        label="Section"
        name="section"
        value={pickedId === null ? '' : String(pickedId)}
        onChange={pick}
        options={sections.map((section) => ({ value: section.id, label: sectionOptionLabel(section) }))}
        emptyOption="New section"
        autoFocusOnOpen
      />
      <Field label="Title" name="title" value={title} onChange={setTitle} error={form.errors.title} />
      <Field label="Order" name="order" value={order} onChange={setOrder} error={form.errors.order} inputMode="numeric" />
      <Message message={form.message} />
      {refusal && (
        <MoveChoice others={others} moveTo={moveTo} onMoveTo={setMoveTo} error={form.errors.move_to_section_id} onMove={() => void remove(Number(moveTo))} />
      )}
      <SectionButtons picked={pickedId !== null} onSave={(mode) => void save(mode)} onRemove={() => void remove()} />
    </form>
  );
}

function SectionButtons({ picked, onSave, onRemove }: { picked: boolean; onSave: (mode: 'add' | 'update') => void; onRemove: () => void }) {
  return (
    <p className="form__actions">
      <button type="button" className="button" onClick={() => onSave('add')}>
        Add
      </button>
      <button type="button" className="button button--secondary" onClick={() => onSave('update')} aria-disabled={!picked || undefined}>
        Update
      </button>
      <button type="button" className="button button--danger" onClick={onRemove} aria-disabled={!picked || undefined}>
        Delete
      </button>
    </p>
  );
}
