// The inbox's answers, word for word (docs/product/messages.md#error-catalogue).
export const INBOX_MESSAGES = {
  notFound: 'Inbox item not found.',
  read: 'Marked as read.',
  handled: 'Marked as handled.',
  reopened: 'Reopened.',
  assigned: 'Assigned to you.',
  unassigned: 'No longer assigned.',
  answered: 'Your answer was sent.',
  replied: 'Reply sent.',
  replyFailed: 'The reply could not be sent, and nothing was recorded. Please try again later.',
  alreadyHandled: 'This license request has already been handled.',
  noTrialType: 'There is no trial license type to grant.',
  declined: 'License request declined; the user was e-mailed.',
  declinedMailFailed: 'License request declined, but the e-mail to the user could not be sent.',
} as const;
