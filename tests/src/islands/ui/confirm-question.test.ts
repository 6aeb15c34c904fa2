// The one confirmation dialog's rules: what a question shows by default, and that every question gets
// exactly one answer (a replaced question counts as cancelled, a second click does not answer twice).
import { describe, expect, it } from 'vitest';
import { createConfirmAsker, type Question } from '../../../../src/islands/ui/confirm-question.ts';

function asker() {
  const shown: (Question | null)[] = [];
  return { shown, ...createConfirmAsker((question) => shown.push(question)) };
}

describe('the confirmation dialog', () => {
  it('shows the question with Ok, a generic title and the destructive style unless told otherwise', () => {
    const { shown, ask } = asker();
    void ask({ message: 'Delete it?' });
    expect(shown.at(-1)).toEqual({ title: 'Please confirm', message: 'Delete it?', confirmLabel: 'Ok', detail: undefined, danger: true });
    void ask({ title: 'UnBan User', message: 'Are you sure?', confirmLabel: 'UnBan', danger: false });
    expect(shown.at(-1)).toMatchObject({ title: 'UnBan User', confirmLabel: 'UnBan', danger: false });
  });

  it('resolves with the answer and closes', async () => {
    const { shown, ask, answer } = asker();
    const yes = ask({ message: 'Delete it?' });
    answer(true);
    await expect(yes).resolves.toBe(true);
    expect(shown.at(-1)).toBeNull();
    const no = ask({ message: 'Delete it?' });
    answer(false);
    await expect(no).resolves.toBe(false);
  });

  it('counts an unanswered question replaced by a new one as cancelled', async () => {
    const { ask, answer } = asker();
    const first = ask({ message: 'First?' });
    const second = ask({ message: 'Second?' });
    await expect(first).resolves.toBe(false);
    answer(true);
    await expect(second).resolves.toBe(true);
  });

  it('takes only the first answer: Ok then Escape still deletes once, and nothing reopens', () => {
    const { shown, ask, answer } = asker();
    const settled: boolean[] = [];
    void ask({ message: 'Delete it?' }).then((value) => settled.push(value));
    answer(true);
    answer(false);
    expect(shown.filter((question) => question === null)).toHaveLength(1);
    return Promise.resolve().then(() => expect(settled).toEqual([true]));
  });
});
