// The submit skeleton every island form shares, free of React so it is tested on its own (the hook in
// use-form-submit.ts holds its state): one submit at a time (a second press while busy is ignored, as the
// busy button stays focusable), the busy label, errors and message cleared as the call starts, the
// action's success message shown, and a failure turned into field errors and a message by the one policy
// of form-errors.ts.
import { describeFailure, type FailureWording, type FieldErrors, type FormFailure, type FormMessage } from './form-errors.ts';

/** An action answers this when the page is about to change: the form stays busy until it goes. */
export const STAY_BUSY = Symbol('stay busy');

/** What a submit action may answer: a message to show, STAY_BUSY, or nothing. */
export type SubmitOutcome = FormMessage | typeof STAY_BUSY | undefined | void;

/** Lets an action change the busy label as it goes ('Checking…', then 'Sending…'). */
export type SubmitAction = (progress: (busyLabel: string) => void) => Promise<SubmitOutcome>;

export interface FormSubmitOptions extends FailureWording {
  /** The fields whose first error the form shows under them. */
  fields: readonly string[];
  /** What the submit button says while the call runs; 'Saving…' when left out. */
  busyLabel?: string;
}

export interface FormState {
  /** Set while a submit runs: what the submit button says meanwhile. */
  busyLabel: string | undefined;
  errors: FieldErrors;
  message: FormMessage | null;
  /** Counts failed submits: each one moves focus to the first invalid field. */
  failures: number;
}

export const INITIAL_FORM_STATE: FormState = { busyLabel: undefined, errors: {}, message: null, failures: 0 };

type Update = (change: (state: FormState) => FormState) => void;

export interface FormSubmitter {
  /** Runs the action unless one is running; resolves with the failure shown, or null. */
  run: (action: SubmitAction, options: FormSubmitOptions) => Promise<FormFailure | null>;
}

export function createFormSubmitter(update: Update): FormSubmitter {
  let running = false;
  const run = async (action: SubmitAction, options: FormSubmitOptions): Promise<FormFailure | null> => {
    if (running) return null;
    running = true;
    update((state) => ({ ...state, busyLabel: options.busyLabel ?? 'Saving…', errors: {}, message: null }));
    let stayBusy = false;
    try {
      const outcome = await action((busyLabel) => update((state) => ({ ...state, busyLabel })));
      stayBusy = outcome === STAY_BUSY;
      if (outcome && outcome !== STAY_BUSY) update((state) => ({ ...state, message: outcome }));
      return null;
    } catch (error) {
      const failure = describeFailure(error, options.fields, options);
      update((state) => ({ ...state, ...failure, failures: state.failures + 1 }));
      return failure;
    } finally {
      if (!stayBusy) {
        running = false;
        update((state) => ({ ...state, busyLabel: undefined }));
      }
    }
  };
  return { run };
}
