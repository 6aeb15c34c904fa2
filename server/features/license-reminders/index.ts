// The face of the license-reminders feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { REMINDER_DEFAULTS, startReminderScheduler } from './job.ts';
