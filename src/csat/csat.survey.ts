import type { OutboundContent } from '../content/message-content.js';

/** What the customer reads above the list, and the list's button (Meta: at most 20 characters). */
const QUESTION = 'Thanks for talking with us! How would you rate the help you got?';
const BUTTON = 'Rate us';

/** The five rows, best first as a customer scans them (Meta: row titles at most 24 characters). */
const SCALE = [
  { rating: 5, title: '5 – Excellent' },
  { rating: 4, title: '4 – Good' },
  { rating: 3, title: '3 – Okay' },
  { rating: 2, title: '2 – Poor' },
  { rating: 1, title: '1 – Very poor' },
] as const;

/** A row's id names the survey and the rating, so a late answer still finds the conversation it rates. */
const ROW_ID = /^csat:([0-9a-f-]{36}):([1-5])$/;
const rowId = (surveyId: string, rating: number) => `csat:${surveyId}:${rating}`;

/**
 * The survey as Meta's interactive list message (reply buttons allow only three): one section of
 * five rows. Sent free-form, so only inside the customer's 24-hour window.
 */
export function surveyMessage(surveyId: string): OutboundContent {
  const rows = SCALE.map(({ rating, title }) => ({ id: rowId(surveyId, rating), title }));
  return {
    type: 'interactive',
    content: {
      interactive: {
        type: 'list',
        body: { text: QUESTION },
        action: { button: BUTTON, sections: [{ title: 'Your rating', rows }] },
      },
      text: QUESTION,
    },
  };
}

/** The survey and rating a customer's list reply (Meta's `interactive.list_reply`) names; null for any other message. */
export function ratingOf(message: { type: string; content: Record<string, unknown> }): {
  surveyId: string;
  rating: number;
} | null {
  if (message.type !== 'interactive') return null;
  const reply = message.content.list_reply as { id?: unknown } | undefined;
  const match = typeof reply?.id === 'string' ? ROW_ID.exec(reply.id) : null;
  return match ? { surveyId: match[1]!, rating: Number(match[2]) } : null;
}
