import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { RestOperation } from './operations.js';

/** The behaviour hints MCP clients read to decide what to confirm with a person before calling a tool. */
export type ToolHints = Required<
  Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>
>;

type Effect = Pick<ToolHints, 'destructiveHint' | 'idempotentHint'>;

const CHANGES: Effect = { destructiveHint: false, idempotentHint: true };
const ADDS: Effect = { destructiveHint: false, idempotentHint: false };
/** Gone for good: what a later call cannot put back as it was. */
const ENDS: Effect = { destructiveHint: true, idempotentHint: true };
/** A message that reached a customer cannot be taken back, and each call is another message. */
const MESSAGES: Effect = { destructiveHint: true, idempotentHint: false };

/**
 * What a writing operation does, by the verb its operationId starts with (`deleteTag` → delete). A verb
 * missing here gets MCP's own cautious defaults (UNCLASSIFIED), and mcp.test.ts fails naming the tool, so
 * a new kind of operation is classified on purpose.
 */
const VERB_EFFECTS: Record<string, Effect> = {
  create: ADDS,
  upload: ADDS,
  try: ADDS,
  simulate: ADDS,
  // Without an id these create; with one they replace (a draft, a version): each call may add one.
  save: ADDS,
  // Adding a tag twice leaves one; a channel already added is a conflict.
  add: CHANGES,
  update: CHANGES,
  set: CHANGES,
  rename: CHANGES,
  assign: CHANGES,
  close: CHANGES,
  reopen: CHANGES,
  snooze: CHANGES,
  unsnooze: CHANGES,
  publish: CHANGES,
  mark: CHANGES,
  sync: CHANGES,
  bulk: CHANGES,
  get: CHANGES,
  // Tries saved settings with one round trip and keeps nothing: calling it again changes nothing more.
  test: CHANGES,
  delete: ENDS,
  remove: ENDS,
  cancel: ENDS,
  stop: ENDS,
  deprecate: ENDS,
  send: MESSAGES,
  trigger: MESSAGES,
};

/** MCP's defaults for a tool that says nothing: it may destroy, and calling it again may do more. */
const UNCLASSIFIED: Effect = { destructiveHint: true, idempotentHint: false };

/** Writing operations whose effect is not their verb's. */
const EFFECT_EXCEPTIONS: Record<string, Effect> = {
  // An upsert by phone: the same call again changes nothing.
  createContact: CHANGES,
  // Each call is another note in the thread.
  addConversationNote: ADDS,
  // Each call makes a new key pair and the old one is gone (Flows using it must be given the new key).
  setUpFlowsEncryption: { destructiveHint: true, idempotentHint: false },
  // Meta freezes a published Flow's JSON for good.
  publishWhatsappFlow: ENDS,
  // A broadcast: every recipient gets the template.
  createCampaign: MESSAGES,
  // Messages the recipients who did not read; a second call answers the resend the first made.
  resendCampaign: { destructiveHint: true, idempotentHint: true },
  // add_tag puts it back.
  removeTag: CHANGES,
};

/**
 * Operations that reach outside Parley: they message customers (sends, broadcasts, flows and sequences
 * started, read receipts, the satisfaction survey a close may send) or talk to Meta (numbers, templates,
 * WhatsApp Flows, groups, uploads). Sends and triggers are counted by their verb.
 */
const OPEN_WORLD = new Set([
  'testAiSettings',
  'markAsRead',
  'createCampaign',
  'resendCampaign',
  'closeConversation',
  'bulkConversations',
  'addChannel',
  'setUpFlowsEncryption',
  'getFlowsEndpoint',
  'createTemplate',
  'updateTemplate',
  'deleteTemplate',
  'uploadMedia',
  'syncWhatsappFlows',
  'createWhatsappFlow',
  'updateWhatsappFlowJson',
  'publishWhatsappFlow',
  'deprecateWhatsappFlow',
  'deleteWhatsappFlow',
  'createGroup',
  'getGroupInviteLink',
]);

/** `deleteTag` → `delete`. */
export const verbOf = (operationId: string): string => /^[a-z]+/.exec(operationId)?.[0] ?? operationId;

/**
 * The one place a tool's hints are decided: read-only from the route's access (a `read` route changes
 * nothing), the rest from the operation's verb and the exceptions above. Every hint is set, since MCP's
 * defaults assume the worst (destructive, open world).
 */
export function deriveHints(operation: Pick<RestOperation, 'operationId' | 'access'>): ToolHints {
  const { operationId } = operation;
  const verb = verbOf(operationId);
  const openWorldHint = OPEN_WORLD.has(operationId) || MESSAGES === VERB_EFFECTS[verb];
  if (operation.access === 'read') {
    return { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint };
  }
  const effect = effectOf(operationId) ?? UNCLASSIFIED;
  return { readOnlyHint: false, ...effect, openWorldHint: openWorldHint || effect === MESSAGES };
}

/** What a writing operation does, or undefined when neither its verb nor an exception says. */
export function effectOf(operationId: string): Effect | undefined {
  return EFFECT_EXCEPTIONS[operationId] ?? VERB_EFFECTS[verbOf(operationId)];
}
