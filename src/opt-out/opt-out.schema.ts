import { Type, type Static } from '@sinclair/typebox';

/** Longest keyword, and most keywords per list: a keyword is a whole message, not a sentence. */
export const KEYWORD_MAX_LENGTH = 64;
export const KEYWORDS_MAX = 50;

const Keywords = (description: string) =>
  Type.Array(Type.String({ maxLength: KEYWORD_MAX_LENGTH }), { maxItems: KEYWORDS_MAX, description });

const STOP_DESCRIPTION =
  'A contact whose whole message (or tapped button) is one of these is opted out of marketing. Case, accents and surrounding punctuation do not count.';
const START_DESCRIPTION = 'A contact whose whole message is one of these is opted back in.';
const CONFIRM_DESCRIPTION =
  'A contact who opts out by keyword or button is told once, in the language of the word they used, that they are unsubscribed.';

/** How contacts opt out of (and back into) marketing in a workspace. */
export const OptOutSettingsSchema = Type.Object(
  {
    stop_keywords: Keywords(STOP_DESCRIPTION),
    start_keywords: Keywords(START_DESCRIPTION),
    confirm: Type.Boolean({ description: CONFIRM_DESCRIPTION }),
  },
  { $id: 'OptOutSettings' },
);

export const UpdateOptOutSettingsBody = Type.Object(
  {
    stop_keywords: Type.Optional(Keywords(`${STOP_DESCRIPTION} Replaces the list.`)),
    start_keywords: Type.Optional(Keywords(`${START_DESCRIPTION} Replaces the list.`)),
    confirm: Type.Optional(Type.Boolean({ description: CONFIRM_DESCRIPTION })),
  },
  { description: 'Only the fields given change.' },
);
export type UpdateOptOutSettingsInput = Static<typeof UpdateOptOutSettingsBody>;
