// The one submit skeleton and error policy every island form uses: what a form shows after each kind of
// failure, one submit at a time, and the busy label as the action goes.
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../../src/lib/api/request.ts';
import { BOTCHECK_UNAVAILABLE_MESSAGE, BotCheckError } from '../../../../src/lib/botcheck.ts';
import { CONNECTION_ERROR, describeFailure, SERVER_ERROR, serverErrorFor5xx } from '../../../../src/islands/ui/form-errors.ts';
import { createFormSubmitter, INITIAL_FORM_STATE, STAY_BUSY, type FormState } from '../../../../src/islands/ui/form-submitter.ts';

const refused = new ApiError(422, {
  message: 'The email field is required.',
  errors: { email: ['The email field is required.'], name: ['The name field is required.'] },
});

describe('the error policy of the forms', () => {
  it('shows the first error per field, and the message only when no shown field says it', () => {
    expect(describeFailure(refused, ['name', 'email'])).toEqual({
      errors: { name: 'The name field is required.', email: 'The email field is required.' },
      message: null,
    });
    expect(describeFailure(refused, ['name']).message).toEqual({ text: 'The email field is required.', tone: 'error' });
  });

  it('shows the message beside the field errors where the form asks for it (the admin notices)', () => {
    expect(describeFailure(refused, ['email'], { messageAlways: true }).message).toEqual({ text: 'The email field is required.', tone: 'error' });
  });

  it('lets a form word a status itself, with no field errors then', () => {
    expect(describeFailure(new ApiError(500, { message: 'Internal Server Error' }), ['email'], { statusMessage: serverErrorFor5xx })).toEqual({
      errors: {},
      message: { text: SERVER_ERROR, tone: 'error' },
    });
    expect(describeFailure(new ApiError(503, { message: '<html>' }), [], { statusMessage: serverErrorFor5xx }).message?.text).toBe(SERVER_ERROR);
    expect(describeFailure(refused, ['email'], { statusMessage: serverErrorFor5xx }).errors).toEqual({ email: 'The email field is required.' });
  });

  it('puts a status that is one field’s fault under that field too', () => {
    const tooBig = new ApiError(413, { message: 'The file is too large.' });
    expect(describeFailure(tooBig, ['file'], { messageAlways: true, statusField: (status) => (status === 413 ? 'file' : undefined) })).toEqual({
      errors: { file: 'The file is too large.' },
      message: { text: 'The file is too large.', tone: 'error' },
    });
  });

  it('says when the server could not be reached, the bot check failed, or an answer had no message', () => {
    // A failure without an answer is also logged, for whoever debugs it.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(describeFailure(new TypeError('Failed to fetch'), ['email']).message?.text).toBe(CONNECTION_ERROR);
    expect(describeFailure(new BotCheckError(''), ['email']).message?.text).toBe(BOTCHECK_UNAVAILABLE_MESSAGE);
    expect(describeFailure(new ApiError(418, {}), []).message?.text).toBe('The request failed (status 418).');
    expect(logged).toHaveBeenCalledTimes(1);
    logged.mockRestore();
  });
});

function submitter() {
  let state: FormState = INITIAL_FORM_STATE;
  const labels: (string | undefined)[] = [];
  const form = createFormSubmitter((change) => {
    state = change(state);
    if (labels.at(-1) !== state.busyLabel) labels.push(state.busyLabel);
  });
  return { form, labels, state: () => state };
}

describe('the submit skeleton', () => {
  it('shows the busy label while the action runs, then the success message', async () => {
    const { form, labels, state } = submitter();
    const failure = await form.run(
      async (progress) => {
        progress('Sending…');
        return { text: 'Message sent.', tone: 'success' };
      },
      { fields: [], busyLabel: 'Checking…' },
    );
    expect(failure).toBeNull();
    expect(labels).toEqual(['Checking…', 'Sending…', undefined]);
    expect(state().message).toEqual({ text: 'Message sent.', tone: 'success' });
  });

  it('turns a failure into errors and a message, counts it (for focus), and clears both on the next submit', async () => {
    const { form, state } = submitter();
    const failure = await form.run(() => Promise.reject(refused), { fields: ['email'] });
    expect(failure?.errors).toEqual({ email: 'The email field is required.' });
    expect(state()).toMatchObject({ errors: { email: 'The email field is required.' }, failures: 1, busyLabel: undefined });
    let seen: FormState | undefined;
    await form.run(
      () => {
        seen = state();
        return Promise.resolve();
      },
      { fields: ['email'] },
    );
    expect(seen).toMatchObject({ errors: {}, message: null, busyLabel: 'Saving…' });
  });

  it('ignores a second submit while one runs', async () => {
    const { form } = submitter();
    let calls = 0;
    let finish = () => undefined as void;
    const first = form.run(
      () => {
        calls += 1;
        return new Promise<void>((resolve) => (finish = resolve));
      },
      { fields: [] },
    );
    await form.run(
      () => {
        calls += 1;
        return Promise.resolve();
      },
      { fields: [] },
    );
    expect(calls).toBe(1);
    finish();
    await first;
    await form.run(
      () => {
        calls += 1;
        return Promise.resolve();
      },
      { fields: [] },
    );
    expect(calls).toBe(2);
  });

  it('stays busy when the page is about to change', async () => {
    const { form, state } = submitter();
    await form.run(() => Promise.resolve(STAY_BUSY), { fields: [], busyLabel: 'Logging in…' });
    expect(state().busyLabel).toBe('Logging in…');
    let ran = false;
    await form.run(
      () => {
        ran = true;
        return Promise.resolve();
      },
      { fields: [] },
    );
    expect(ran).toBe(false);
  });
});
