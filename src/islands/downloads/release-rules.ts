// Small rules of the downloads admin island that are not API calls.

/** The form's fields, in the order their error slots are shown (docs/decisions/0008-downloads-api.md). */
export const RELEASE_FIELDS = ['title', 'body', 'release', 'version', 'channel', 'released_at', 'entitlement', 'is_current', 'downloadable', 'file'] as const;
