import { Type } from '@sinclair/typebox';
import { listingResponse, pageQuery, pageRequest, pageSchema, sendListing } from '../http/pagination.js';
import { actionErrors, Uuid } from '../http/responses.js';
import { principalOf, sessionUserOf, type Api } from '../http/types.js';
import { WhatsappFlowAnswerRecordSchema } from '../triggers/index.js';
import type { WhatsappFlowAnswers } from './whatsapp-flow-answers.js';
import { ANSWER_LIST_CAP, ListWhatsappFlowAnswersBody } from './whatsapp-flow.schema.js';

// Answers are what customers told about themselves: reading them takes what exporting contacts takes.
const permission = 'contacts' as const;
const AnswerList = Type.Array(Type.Ref(WhatsappFlowAnswerRecordSchema), { maxItems: ANSWER_LIST_CAP });
const AnswerPage = pageSchema(Type.Ref(WhatsappFlowAnswerRecordSchema), 'WhatsappFlowAnswerPage');

/** WhatsApp Flows' answers: the list (REST, MCP) and a Flow's CSV export (the dashboard's download). */
export function registerWhatsappFlowAnswerRoutes(app: Api, answers: WhatsappFlowAnswers): void {
  app.addSchema(AnswerPage);
  app.post(
    '/api/v1/actions/list-whatsapp-flow-answers',
    {
      config: { access: 'read', permission },
      schema: {
        operationId: 'listWhatsappFlowAnswers',
        tags: ['WhatsApp Flows'],
        summary: "List the answers customers sent to WhatsApp Flows (Meta's forms)",
        description: `Each completed Flow, as the new-whatsapp-flow-answer feed shows it: the send it answers (by its flow_token; an answer to a Flow sent from elsewhere is kept, linked to no send), the contact, and the fields labelled as the Flow JSON labels them. Of one Flow (\`whatsapp_flow_id\`), of one contact (\`contact_id\`), or both; newest first, at most ${ANSWER_LIST_CAP}. With \`paginate=cursor\`, every one page by page in the same order.`,
        querystring: Type.Object(pageQuery(ANSWER_LIST_CAP)),
        body: ListWhatsappFlowAnswersBody,
        response: { 200: listingResponse(AnswerList, AnswerPage), ...actionErrors(404) },
      },
    },
    async (request, reply) => {
      const page = pageRequest(request.query, ANSWER_LIST_CAP);
      const listing = await answers.list(principalOf(request), request.body, page);
      return sendListing(reply, listing, { list: AnswerList, page: AnswerPage });
    },
  );

  app.get(
    '/api/dashboard/whatsapp-flows/:id/answers.csv',
    { config: { access: 'session', permission }, schema: { params: Type.Object({ id: Uuid() }) } },
    async (request, reply) => {
      const { name, file } = await answers.csv(sessionUserOf(request), request.params.id);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName(name)}-answers.csv"`)
        .header('cache-control', 'no-store')
        .send(file);
    },
  );
}

/** A Flow's name as a download's name: letters, digits and dashes (a header cannot carry just any text). */
const fileName = (name: string) => name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'whatsapp-flow';
