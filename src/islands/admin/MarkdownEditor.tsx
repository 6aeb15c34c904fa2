// A markdown body field: the toolbar, the textarea and a live preview rendered by the site's own pipeline
// (what the admin previews is what readers get). Toolbar edits go through the browser's editing command,
// so Ctrl+Z undoes them like typing; the image manager inserts at the cursor through `insertBlock`.
import { useId, useImperativeHandle, useRef, type KeyboardEvent, type Ref, type RefObject } from 'react';
import { MarkdownToolbar, type ToolbarAction } from './MarkdownToolbar.tsx';
import { applyEdit, insertBlock, insertLink, setHeading, toggleInline, type Selection, type TextEdit } from './markdown-edits.ts';
import { useRenderedMarkdown } from './use-markdown.ts';

export interface MarkdownEditorHandle {
  /** Inserts a block (image markdown, a video embed) at the cursor, on lines of its own. */
  insertBlock: (block: string) => void;
  focus: () => void;
}

interface MarkdownEditorProps {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  /** Opens the image manager; without it the toolbar has no Images button. */
  onOpenImages?: () => void;
  rows?: number;
  ref?: Ref<MarkdownEditorHandle>;
}

const PREVIEW_DELAY_MS = 250;

/**
 * Edits of the textarea's text at its selection, and the selection kept across blurs. Where the cursor was
 * when the textarea lost focus matters: browsers do not reliably keep a blurred textarea's selection
 * (Chromium resets it to 0 when the image manager's modal dialog closes), and insertions from that dialog
 * must land where the admin left the cursor.
 */
function useTextareaEdits(textarea: RefObject<HTMLTextAreaElement | null>, onChange: (value: string) => void) {
  const lastSelection = useRef<Selection>({ start: 0, end: 0 });
  const remember = () => {
    const element = textarea.current;
    if (element) lastSelection.current = { start: element.selectionStart, end: element.selectionEnd };
  };

  /** Focus coming back (the dialog closed, Tab, a toolbar edit) finds the cursor where it was left. */
  const restore = () => {
    const element = textarea.current;
    if (!element) return;
    const { start, end } = lastSelection.current;
    if (end <= element.value.length && (element.selectionStart !== start || element.selectionEnd !== end)) element.setSelectionRange(start, end);
  };

  const apply = (makeEdit: (text: string, selection: Selection) => TextEdit) => {
    const element = textarea.current;
    if (!element) return;
    if (document.activeElement !== element) element.focus();
    const before = element.value;
    const edit = makeEdit(before, { start: element.selectionStart, end: element.selectionEnd });
    element.setSelectionRange(edit.from, edit.to);
    const expected = applyEdit(before, edit);
    // insertText fires the input event React listens to, and lands on the undo stack.
    const inserted = edit.insert === '' ? document.execCommand('delete') : document.execCommand('insertText', false, edit.insert);
    if (!inserted || element.value !== expected) onChange(expected);
    element.setSelectionRange(edit.select.start, edit.select.end);
    lastSelection.current = edit.select;
    // When the value came through React state, the selection is set again once it is rendered.
    requestAnimationFrame(() => {
      if (document.activeElement === element) element.setSelectionRange(edit.select.start, edit.select.end);
    });
  };

  return { remember, restore, apply };
}

function PreviewPane({ label, value, preview }: { label: string; value: string; preview: string | null }) {
  return (
    <section className="md-editor__preview" aria-label={`${label}: preview`}>
      <p className="md-editor__preview-label" aria-hidden="true">
        Preview
      </p>
      {preview === null ? (
        <div className="prose md-editor__plain">{value}</div>
      ) : (
        <div className="prose" data-preview dangerouslySetInnerHTML={{ __html: preview }} />
      )}
    </section>
  );
}

export function MarkdownEditor({ label, name, value, onChange, error, onOpenImages, rows = 14, ref }: MarkdownEditorProps) {
  const id = useId();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const preview = useRenderedMarkdown(value, PREVIEW_DELAY_MS);

  const { remember, restore, apply } = useTextareaEdits(textarea, onChange);

  useImperativeHandle(ref, () => ({
    insertBlock: (block) => apply((text, selection) => insertBlock(text, selection, block)),
    focus: () => textarea.current?.focus(),
  }));

  const onAction = (action: ToolbarAction) => {
    if (action.kind === 'heading') apply((text, selection) => setHeading(text, selection, action.level));
    else if (action.kind === 'inline') apply((text, selection) => toggleInline(text, selection, action.style));
    else if (action.kind === 'link') apply(insertLink);
    else onOpenImages?.();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    const key = event.key.toLowerCase();
    if (key === 'b') onAction({ kind: 'inline', style: 'bold' });
    else if (key === 'i') onAction({ kind: 'inline', style: 'italic' });
    else if (key === 'k') onAction({ kind: 'link' });
    else return;
    event.preventDefault();
  };

  const errorId = `${id}-error`;
  return (
    <div className={error ? 'field field--invalid md-editor' : 'field md-editor'}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <MarkdownToolbar controls={id} onAction={onAction} withImages={onOpenImages !== undefined} />
      <div className="md-editor__panes">
        <textarea
          ref={textarea}
          id={id}
          name={name}
          rows={rows}
          className="field__control md-editor__text"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={onKeyDown}
          onSelect={remember}
          onBlur={remember}
          onFocus={restore}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          spellCheck
        />
        <PreviewPane label={label} value={value} preview={preview} />
      </div>
      {error && (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}
