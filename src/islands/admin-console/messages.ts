// The admin screen's fixed texts from docs/product/messages.md#error-catalogue, word for word (the spelling of 'UnBan' included), in one
// place so the components and the browser tests agree on them.

export { HARD_DELETE_WARNING } from '../ui/confirm-question.ts';

export function banQuestion(name: string, banning: boolean): string {
  return `Are you sure you want to ${banning ? 'BAN' : 'UNBAN'} ${name}?`;
}
