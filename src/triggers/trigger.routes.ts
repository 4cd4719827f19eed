import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import {
  CampaignRecordSchema,
  FlowFilter,
  FlowRecordSchema,
  MessageFilter,
  MessageRecordSchema,
  SequenceFilter,
  SequenceRecordSchema,
  TRIGGER_LIMIT,
} from './trigger.schema.js';
import type { TriggerService } from './trigger.service.js';

const POLLING = `Returns at most ${TRIGGER_LIMIT} records, newest first (created_at, then id, descending). Polling rule: remember the newest id seen; next time, process records from the top until that id, then store the first id of the new batch. Poll at most once per workspace interval (default 30 s); faster polls get 429 with Retry-After.`;

/**
 * The four trigger feeds, at /api/v1/triggers/<name> and at the legacy /api/zapier/triggers/<name>
 * that older pollers still call.
 */
export function registerTriggerRoutes(app: Api, triggers: TriggerService): void {
  for (const record of [MessageRecordSchema, CampaignRecordSchema, FlowRecordSchema, SequenceRecordSchema]) {
    app.addSchema(record);
  }

  const feed = <Q extends TSchema>(
    name: string,
    spec: { summary: string; querystring: Q; record: TSchema; operationId: string },
    handler: (request: FastifyRequest<{ Querystring: Q['static'] }>, reply: FastifyReply) => Promise<unknown>,
  ) => {
    for (const [prefix, legacy] of [
      ['/api/v1/triggers/', false],
      ['/api/zapier/triggers/', true],
    ] as const) {
      app.get(
        `${prefix}${name}`,
        {
          config: { access: 'read', poll: name },
          schema: {
            operationId: legacy ? `${spec.operationId}Legacy` : spec.operationId,
            tags: ['Triggers'],
            summary: legacy ? `${spec.summary} (legacy path)` : spec.summary,
            description: legacy ? `Same as GET /v1/triggers/${name}; kept for older pollers.` : POLLING,
            ...(legacy && { deprecated: true }),
            querystring: spec.querystring,
            response: { 200: Type.Array(Type.Ref(spec.record), { maxItems: TRIGGER_LIMIT }), ...readErrors() },
          },
        },
        handler as never,
      );
    }
  };

  feed(
    'new-message-received',
    {
      summary: 'New inbound messages',
      querystring: MessageFilter,
      record: MessageRecordSchema,
      operationId: 'newMessageReceived',
    },
    // The records are stored as JSON text; the array of them is sent as it is.
    async (request, reply) =>
      reply
        .type('application/json; charset=utf-8')
        .send(await triggers.messagesReceived(principalOf(request), request.query.message_type)),
  );
  feed(
    'new-campaign-sent',
    {
      summary: 'Campaigns that finished sending',
      querystring: Type.Object({}),
      record: CampaignRecordSchema,
      operationId: 'newCampaignSent',
    },
    (request) => triggers.campaignsSent(principalOf(request)),
  );
  feed(
    'new-flow-triggered',
    {
      summary: 'Flow runs started',
      querystring: FlowFilter,
      record: FlowRecordSchema,
      operationId: 'newFlowTriggered',
    },
    (request) => triggers.flowsTriggered(principalOf(request), request.query.flow_id),
  );
  feed(
    'new-sequence-triggered',
    {
      summary: 'Sequence enrolments',
      querystring: SequenceFilter,
      record: SequenceRecordSchema,
      operationId: 'newSequenceTriggered',
    },
    (request) => triggers.sequencesTriggered(principalOf(request), request.query.sequence_id),
  );
}
