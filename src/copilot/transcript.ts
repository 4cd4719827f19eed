import { messageText } from '../content/message-text.js';
import type { latestMessages } from '../messages/index.js';

type ListedMessage = Awaited<ReturnType<typeof latestMessages>>[number];

/** One message of a conversation as the model reads it: who wrote it, when, and its text. */
export interface TranscriptLine {
  /** The customer; the team (people and the AI assistant, who answer); an automation (a campaign, a flow…). */
  from: 'customer' | 'team' | 'automation';
  /** How the model is told who wrote it: the customer, a person of the team (named), an automation. */
  who: string;
  text: string;
  /** `YYYY-MM-DD HH:MM` (UTC): enough for "yesterday" and "last week" to mean something. */
  at: string;
}

/** The most one message adds to a prompt: a pasted document must not crowd out the rest of the thread. */
const MESSAGE_CHARS = 1_000;

/** Who wrote a message, as the model is told: people by name, automations by kind. */
function authorOf(message: ListedMessage): Pick<TranscriptLine, 'from' | 'who'> {
  const sender = message.sender;
  if (message.direction === 'inbound') return { from: 'customer', who: 'Customer' };
  // Sent before Parley recorded senders: someone of the business, who is no longer known.
  if (!sender) return { from: 'team', who: 'Business' };
  switch (sender.type) {
    case 'user':
      return { from: 'team', who: sender.name ? `Agent (${sender.name})` : 'Agent' };
    case 'api':
    case 'business_app':
      return { from: 'team', who: 'Agent' };
    case 'ai':
      return { from: 'team', who: 'AI assistant' };
    default:
      return { from: 'automation', who: `Automated message (${sender.type})` };
  }
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The messages (oldest first) as transcript lines. A message that failed never reached the customer,
 * so it is not part of what they saw; one with no text of its own reads as its kind ("Image: menu").
 */
export function transcriptOf(messages: ListedMessage[]): TranscriptLine[] {
  return messages
    .filter((message) => message.status !== 'failed')
    .map((message) => ({
      ...authorOf(message),
      text: clip(messageText(message.type, message.content).trim(), MESSAGE_CHARS),
      at: message.created_at.slice(0, 16).replace('T', ' '),
    }));
}

/**
 * The newest lines whose text fits in `maxChars` (a long thread is summarised from its end), and how
 * many earlier ones were left out.
 */
export function newestWithin(lines: TranscriptLine[], maxChars: number): { lines: TranscriptLine[]; leftOut: number } {
  let used = 0;
  let start = lines.length;
  while (start > 0) {
    const size = formatLine(lines[start - 1]!).length + 1;
    if (used + size > maxChars) break;
    used += size;
    start--;
  }
  return { lines: lines.slice(start), leftOut: start };
}

const formatLine = (line: TranscriptLine) => `[${line.at}] ${line.who}: ${line.text}`;

/** The lines as the prompt shows them, one a line. */
export const formatTranscript = (lines: TranscriptLine[]) => lines.map(formatLine).join('\n');

/**
 * What the customer said since the team last wrote to them (what a reply answers; an automation's
 * message answers nothing), else their latest message, else the latest message: the words the
 * knowledge is searched with.
 */
export function openQuestion(lines: TranscriptLine[]): string {
  const answers = lines.map((line, index) => (line.from === 'team' ? index : -1));
  const unanswered = lines.slice(Math.max(...answers, -1) + 1).filter((line) => line.from === 'customer');
  const asked = unanswered.length > 0 ? unanswered : lines.filter((line) => line.from === 'customer').slice(-1);
  return (asked.length > 0 ? asked : lines.slice(-1)).map((line) => line.text).join('\n');
}
