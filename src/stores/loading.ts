// The full-screen loading modal of docs/product/routes.md#navigation-bar: a spinner, and for uploads/downloads the file name,
// its size and a 0–100 progress bar (docs/product/states.md#loading).
import { atom } from 'nanostores';

export interface LoadingState {
  show: boolean;
  showDetails: boolean;
  /** 0 to 100. */
  progress: number;
  filesize: number;
  filename: string;
}

const idle: LoadingState = { show: false, showDetails: false, progress: 0, filesize: 0, filename: '' };

export const $loading = atom<LoadingState>(idle);

let pending = 0;

/** On at each request, off when the last one answered; nested requests keep it on. */
export function startLoading(): void {
  pending += 1;
  if (!$loading.get().show) $loading.set({ ...idle, show: true });
}

export function stopLoading(): void {
  pending = Math.max(0, pending - 1);
  if (pending === 0) $loading.set(idle);
}

export function reportProgress(filename: string, loaded: number, total: number): void {
  const progress = total > 0 ? Math.min(100, Math.round((loaded * 100) / total)) : 0;
  $loading.set({ show: true, showDetails: true, progress, filesize: total, filename });
}

/** Ends a transfer's progress display, unless ordinary requests still hold the modal open. */
export function finishTransfer(): void {
  $loading.set(pending === 0 ? idle : { ...idle, show: true });
}
