import type { Kysely } from 'kysely';
import { contactRepository, type ContactRow } from '../contacts/index.js';
import type { Database } from '../db/schema.js';
import { isWindowOpen } from '../messages/index.js';
import { stopWordIn } from './assistant.guards.js';
import { lastIndexWhere, THREAD_LENGTH, unansweredTexts } from './assistant.prompt.js';
import { assistantRepository, type ThreadMessage } from './assistant.repository.js';
import type { AssistantSettings, HandoverReason } from './assistant.schema.js';

/** What the gate asks of the domains beside and below the assistant (wired in services.ts). */
export interface GateNeighbours {
  /** Whether the business hours say open now. */
  isOpenNow(db: Kysely<Database>, workspaceId: string): Promise<boolean>;
  /** Whether the text is one of the workspace's opt-out keywords. */
  isStopKeyword(db: Kysely<Database>, workspaceId: string, text: string): Promise<boolean>;
  /** Of these contacts, those a flow holds (waiting for their reply, or calling out). */
  holding(db: Kysely<Database>, workspaceId: string, contactIds: string[]): Promise<Set<string>>;
}

/** The conversation the assistant would answer, as the gate found it. */
export interface Situation {
  settings: AssistantSettings;
  contact: ContactRow;
  span: { id: string; opened_at: string };
  thread: ThreadMessage[];
  /** The customer's latest message: the one a turn answers. */
  latest: ThreadMessage;
  replies: number;
  told: boolean;
}

/** Whether to leave the conversation be, give it to a person (and why), or ask the model. */
export type Gate =
  | { go: 'skip' }
  | { go: 'hand_over'; reason: HandoverReason; situation: Situation }
  | { go: 'ask'; situation: Situation };

const SKIP = { go: 'skip' } as const;

/** Whether the settings put the conversation in the assistant's hands: its number, its team, the hours. */
async function inScope(
  settings: AssistantSettings,
  channelId: string | null,
  teamId: string | null,
  openNow: () => Promise<boolean>,
): Promise<boolean> {
  if (settings.channel_ids.length > 0 && !(channelId && settings.channel_ids.includes(channelId))) return false;
  if (settings.team_ids.length > 0 && !(teamId && settings.team_ids.includes(teamId))) return false;
  if (settings.hours === 'always') return true;
  return (await openNow()) === (settings.hours === 'inside_hours');
}

/**
 * The assistant's guards, read afresh by the job before it asks the model and again in the transaction
 * that acts: the conversation must be unanswered by the assistant, open, in nobody's hands (no person
 * asked for, assigned or having written in it), in no flow, within the 24-hour window, and the
 * assistant's (its settings' numbers, teams and hours, or a flow's ai_assistant node). Then a stop word,
 * an opt-out keyword or the reply limit hand it to a person without the model.
 */
export async function gate(
  db: Kysely<Database>,
  neighbours: GateNeighbours,
  workspaceId: string,
  contactId: string,
  now: Date,
): Promise<Gate> {
  const repository = assistantRepository(db);
  const settings = await repository.settings(workspaceId);
  const contact = await contactRepository(db).findById(workspaceId, contactId);
  if (!contact || contact.handoff_at !== null || !isWindowOpen(contact, now)) return SKIP;
  const thread = await repository.thread(workspaceId, contactId, THREAD_LENGTH);
  const latestIndex = lastIndexWhere(thread, (message) => message.direction === 'inbound');
  const latest = thread[latestIndex];
  // A flow that spoke after the customer's message waits for their answer to it (then hands over here).
  const flowSpoke = thread.slice(latestIndex + 1).some((message) => message.sender_type === 'flow');
  if (!latest || flowSpoke || (await repository.answered(latest.id))) return SKIP;
  const span = await repository.openSpan(workspaceId, contactId);
  const conversation = await repository.conversation(workspaceId, contactId);
  if (!span || conversation.assignee_id !== null) return SKIP;
  if (await repository.personWrote(workspaceId, contactId, span.opened_at)) return SKIP;
  if ((await neighbours.holding(db, workspaceId, [contactId])).size > 0) return SKIP;

  const engaged = await repository.engaged(workspaceId, contactId);
  const situation = { settings, contact, span, thread, latest, ...(await repository.spanTally(span.id)) };
  if (!settings.enabled) return engaged ? { go: 'hand_over', reason: 'assistant_off', situation } : SKIP;
  const openNow = () => neighbours.isOpenNow(db, workspaceId);
  if (!engaged && !(await inScope(settings, latest.channel_id, conversation.team_id, openNow))) return SKIP;
  const reason = await stopReason(db, neighbours, situation, workspaceId);
  return reason ? { go: 'hand_over', reason, situation } : { go: 'ask', situation };
}

/** Why the customer's messages go to a person without the model: an opt-out keyword, a stop word, the limit. */
async function stopReason(
  db: Kysely<Database>,
  neighbours: GateNeighbours,
  { settings, thread, replies }: Situation,
  workspaceId: string,
): Promise<HandoverReason | null> {
  const texts = unansweredTexts(thread);
  for (const text of texts) if (await neighbours.isStopKeyword(db, workspaceId, text)) return 'opt_out';
  if (texts.some((text) => stopWordIn(text, settings.stop_words))) return 'stop_word';
  return replies >= settings.reply_limit ? 'reply_limit' : null;
}
