// Copy buttons for values readers check by hand (a release's SHA-256). The static page renders them
// hidden, since without a script they would do nothing; this shows them and copies the text of the
// element named by data-copy-target. Where the Clipboard API is missing (plain http on another host),
// the value is selected instead so Ctrl+C copies it.

const CONFIRM_MS = 2000;

function selectText(element: HTMLElement): void {
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}

/** Copies the element's text (or selects it); resolves with what to tell the user. */
export async function copyElementText(element: HTMLElement): Promise<string> {
  const text = element.textContent?.trim() ?? '';
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return 'Copied';
    } catch {
      // Refused (permissions, focus): fall through to selecting it.
    }
  }
  selectText(element);
  return 'Selected: press Ctrl+C to copy';
}

export function enableCopyButtons(root: ParentNode): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>('button[data-copy-target]')) {
    const target = document.getElementById(button.dataset.copyTarget ?? '');
    if (!target || !button.hidden) continue;
    const status = document.createElement('span');
    status.className = 'copy-status';
    status.setAttribute('role', 'status');
    button.after(status);
    let timer: ReturnType<typeof setTimeout> | undefined;
    button.addEventListener('click', () => {
      void copyElementText(target).then((result) => {
        status.textContent = result;
        clearTimeout(timer);
        timer = setTimeout(() => (status.textContent = ''), CONFIRM_MS);
      });
    });
    button.hidden = false;
  }
}
