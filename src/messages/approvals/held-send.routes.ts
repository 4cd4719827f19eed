import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { actionErrors, Uuid } from '../../http/responses.js';
import { principalOf, sessionUserOf, type Api } from '../../http/types.js';
import { MessageSchema, type Message } from '../message.schema.js';
import type { MessageService } from '../message.service.js';
import { isHeld } from './held-sends.js';
import {
  ApproveBody,
  GetHeldSendBody,
  HeldSendSchema,
  PendingSendSchema,
  RejectBody,
  type HeldSend,
} from './held-send.schema.js';

/** What every send to a contact says of approval mode (its description's last sentence). */
export const HELD_SENDS =
  "A token in approval mode (made so in Settings → API tokens; get-me's `token.mode`) sends nothing here: the answer is 202 with the held send (`status: awaiting_approval`), which waits in the conversation for a person to approve, edit or reject it before its token's timeout; `reasoning` tells them why. The sending rules are checked first all the same (422 outside the window). get-held-send follows it.";

/** The 202 answer of a send an approval-mode token made, documented beside the 200 message. */
export const HELD_ANSWER = {
  202: Type.Ref(HeldSendSchema, {
    description: 'The token is in approval mode: nothing was sent; the send waits for a person (get-held-send)',
  }),
};

/** Answers a send: the message queued (200), or the held send (202). */
export function answerSend<A extends Message | HeldSend>(reply: FastifyReply, answer: A): A {
  if (isHeld(answer)) void reply.code(202);
  return answer;
}

const permission = 'conversations' as const;
const HeldSendParams = Type.Object({ id: Uuid() });

/**
 * get-held-send for the agent that made one; the conversation's held sends, and approving or rejecting
 * one, for a member in the dashboard (a person decides, never a token: an agent cannot approve its own).
 */
export function registerHeldSendRoutes(app: Api, messages: MessageService): void {
  app.post(
    '/api/v1/actions/get-held-send',
    {
      config: { access: 'read', permission },
      schema: {
        operationId: 'getHeldSend',
        tags: ['Messages'],
        summary: 'Follow a send held for approval: awaiting, approved (with its message), rejected or expired',
        description:
          'A send by a token in approval mode answers 202 with a held send; this reads it again. Once approved, `message_id` names the message (get-message follows its delivery; `edited` says a person changed the text); a rejection may carry a `note` for the agent.',
        body: GetHeldSendBody,
        response: { 200: Type.Ref(HeldSendSchema), ...actionErrors(404) },
      },
    },
    async (request) => messages.heldSends.get(principalOf(request), request.body.held_send_id),
  );

  app.get(
    '/api/dashboard/conversations/:contactId/held-sends',
    {
      config: { access: 'session', permission },
      schema: {
        params: Type.Object({ contactId: Uuid() }),
        response: { 200: Type.Array(PendingSendSchema) },
      },
    },
    async (request) => messages.heldSends.awaiting(sessionUserOf(request).workspaceId, request.params.contactId),
  );

  app.post(
    '/api/dashboard/held-sends/:id/approve',
    {
      config: { access: 'session', permission },
      schema: { params: HeldSendParams, body: ApproveBody, response: { 200: Type.Ref(MessageSchema) } },
    },
    async (request) => messages.approveHeld(sessionUserOf(request), request.params.id, request.body.message),
  );

  app.post(
    '/api/dashboard/held-sends/:id/reject',
    {
      config: { access: 'session', permission },
      schema: { params: HeldSendParams, body: RejectBody, response: { 200: Type.Ref(HeldSendSchema) } },
    },
    async (request) => messages.heldSends.reject(sessionUserOf(request), request.params.id, request.body.note),
  );
}
