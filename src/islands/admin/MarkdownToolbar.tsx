// The post form's markdown toolbar (docs/product/reading.md#posts-screens): headings 1 to 5, bold, italic, strikethrough,
// highlight, link, and the image manager. A WAI-ARIA toolbar: one Tab stop, arrow keys (and Home/End)
// move between the buttons; every button has a spoken name, since most show only a symbol.
import { useRef, useState, type KeyboardEvent } from 'react';
import { HEADING_LEVELS, type InlineStyle } from './markdown-edits.ts';

export type ToolbarAction = { kind: 'heading'; level: number } | { kind: 'inline'; style: InlineStyle } | { kind: 'link' } | { kind: 'images' };

interface ToolbarButton {
  action: ToolbarAction;
  label: string;
  text: string;
  className?: string;
  shortcut?: string;
}

const BUTTONS: ToolbarButton[] = [
  // The name starts with what the button shows (WCAG 2.5.3, label in name): a speech user says "click H2".
  ...HEADING_LEVELS.map((level) => ({ action: { kind: 'heading', level } as const, label: `H${level}: heading ${level}`, text: `H${level}` })),
  { action: { kind: 'inline', style: 'bold' }, label: 'Bold', text: 'B', className: 'md-toolbar__bold', shortcut: 'Control+B' },
  { action: { kind: 'inline', style: 'italic' }, label: 'Italic', text: 'I', className: 'md-toolbar__italic', shortcut: 'Control+I' },
  { action: { kind: 'inline', style: 'strikethrough' }, label: 'Strikethrough', text: 'S', className: 'md-toolbar__strike' },
  { action: { kind: 'inline', style: 'highlight' }, label: 'Highlight', text: '==', className: 'md-toolbar__mark' },
  { action: { kind: 'link' }, label: 'Insert link', text: 'Link', shortcut: 'Control+K' },
];

const IMAGES_BUTTON: ToolbarButton = { action: { kind: 'images' }, label: 'Images: upload or insert into the text', text: 'Images…' };

interface MarkdownToolbarProps {
  controls: string;
  onAction: (action: ToolbarAction) => void;
  /** Without it (no image library for this form) the Images button is left out. */
  withImages: boolean;
}

export function MarkdownToolbar({ controls, onAction, withImages }: MarkdownToolbarProps) {
  const buttons = withImages ? [...BUTTONS, IMAGES_BUTTON] : BUTTONS;
  const [active, setActive] = useState(0);
  const refs = useRef<(HTMLButtonElement | null)[]>([]);

  const move = (index: number) => {
    const next = (index + buttons.length) % buttons.length;
    setActive(next);
    refs.current[next]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const keys: Record<string, () => void> = {
      ArrowRight: () => move(active + 1),
      ArrowLeft: () => move(active - 1),
      Home: () => move(0),
      End: () => move(buttons.length - 1),
    };
    const handler = keys[event.key];
    if (!handler) return;
    event.preventDefault();
    handler();
  };

  return (
    <div className="md-toolbar" role="toolbar" aria-label="Formatting" aria-controls={controls} onKeyDown={onKeyDown}>
      {buttons.map((button, index) => (
        <button
          key={button.label}
          ref={(element) => {
            refs.current[index] = element;
          }}
          type="button"
          className={['md-toolbar__button', button.className].filter(Boolean).join(' ')}
          aria-label={button.label}
          title={button.shortcut ? `${button.label} (${button.shortcut.replace('Control', 'Ctrl')})` : button.label}
          aria-keyshortcuts={button.shortcut}
          aria-haspopup={button.action.kind === 'images' ? 'dialog' : undefined}
          tabIndex={index === active ? 0 : -1}
          onFocus={() => setActive(index)}
          // Keep the textarea's selection: a mouse press would otherwise move focus before the click.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onAction(button.action)}
        >
          {button.text}
        </button>
      ))}
    </div>
  );
}
