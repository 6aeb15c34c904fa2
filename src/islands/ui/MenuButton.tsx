// A compact menu of actions behind one button (the WAI-ARIA menu button pattern): aria-haspopup="menu"
// and aria-expanded on the button; Enter, Space or Down opens the menu on its first item, Up on its last;
// Up/Down move round the items, Home/End jump, Escape closes it and gives focus back to the button, Tab
// or a click elsewhere closes it. An item that cannot be used here stays listed, aria-disabled, with the
// reason as its description (and title), so the admin learns why before trying. The menu is rendered at
// the end of the button's landmark (a portal into its <main>, so it is inside a landmark like the rest of
// the page) and placed fixed under the button, following it as things scroll, so neither a scrolling table
// nor a pinned column's stacking clips or covers it.
import { createPortal } from 'react-dom';
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface MenuItem {
  label: string;
  /** Words only screen readers hear after the label (whom the action concerns). */
  srLabel?: string;
  onSelect: () => void;
  /** Why the item cannot be used here; the item is then disabled. */
  disabledReason?: string;
  danger?: boolean;
}

interface MenuButtonProps {
  /** The button's visible text. */
  label: ReactNode;
  items: readonly MenuItem[];
  className?: string;
}

type Opening = 'first' | 'last' | null;

/** Where the menu goes: under the button (above it when there is no room below), inside the window. */
function placeMenu(anchor: DOMRect, size: DOMRect): { top: string; left: string } {
  const below = anchor.bottom + 4;
  const top = below + size.height > window.innerHeight && anchor.top - size.height - 4 > 0 ? anchor.top - size.height - 4 : below;
  return { top: `${top}px`, left: `${Math.max(8, Math.min(anchor.left, window.innerWidth - size.width - 8))}px` };
}

export function MenuButton({ label, items, className = 'button button--secondary button--admin-tiny' }: MenuButtonProps) {
  const id = useId();
  const [opening, setOpening] = useState<Opening>(null);
  // Where the menu is rendered: the landmark holding the button, found when it opens.
  const [host, setHost] = useState<Element | null>(null);
  const open = opening !== null;
  const openMenu = (at: Exclude<Opening, null>) => {
    setHost(button.current?.closest('main') ?? document.body);
    setOpening(at);
  };
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  // Placed before it is painted.
  useLayoutEffect(() => {
    if (!open) return;
    const place = () => {
      if (button.current && menu.current)
        Object.assign(menu.current.style, placeMenu(button.current.getBoundingClientRect(), menu.current.getBoundingClientRect()));
    };
    place();
    // The menu follows its button when the page or the table scrolls, or the window changes size.
    window.addEventListener('scroll', place, true);
    window.addEventListener('resize', place);
    return () => {
      window.removeEventListener('scroll', place, true);
      window.removeEventListener('resize', place);
    };
  }, [open]);

  const itemElements = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  const close = (focusButton: boolean) => {
    setOpening(null);
    if (focusButton) button.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    const elements = itemElements();
    (opening === 'last' ? elements.at(-1) : elements[0])?.focus({ preventScroll: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpening(null);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const onButtonKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openMenu(event.key === 'ArrowUp' ? 'last' : 'first');
    }
  };

  const onMenuKey = (event: KeyboardEvent<HTMLUListElement>) => {
    const elements = itemElements();
    const index = elements.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      event.preventDefault();
      elements[(to + elements.length) % elements.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(elements.length - 1);
    else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === 'Tab') {
      // The menu lives at the end of the page: Tab continues from its button, not from there.
      event.preventDefault();
      close(true);
    }
  };

  const choose = (item: MenuItem) => {
    if (item.disabledReason) return;
    close(true);
    item.onSelect();
  };

  return (
    <span className="menu-button">
      <button
        ref={button}
        type="button"
        className={className}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        id={`${id}-button`}
        onClick={() => (open ? setOpening(null) : openMenu('first'))}
        onKeyDown={onButtonKey}
      >
        {label}
        <span className="menu-button__caret" aria-hidden="true"></span>
      </button>
      {open &&
        host &&
        createPortal(
          <ul ref={menu} id={`${id}-menu`} role="menu" aria-labelledby={`${id}-button`} className="menu-button__menu" onKeyDown={onMenuKey}>
            {items.map((item, index) => (
              <li key={item.label} role="none">
                <button
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  className={item.danger ? 'menu-button__item menu-button__item--danger' : 'menu-button__item'}
                  aria-disabled={item.disabledReason ? true : undefined}
                  aria-describedby={item.disabledReason ? `${id}-reason-${index}` : undefined}
                  title={item.disabledReason}
                  onClick={() => choose(item)}
                >
                  {item.label}
                  {item.srLabel && <span className="sr-only"> {item.srLabel}</span>}
                </button>
                {item.disabledReason && (
                  <span id={`${id}-reason-${index}`} className="menu-button__reason">
                    {item.disabledReason}
                  </span>
                )}
              </li>
            ))}
          </ul>,
          host,
        )}
    </span>
  );
}
