import { Type } from '@sinclair/typebox';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import {
  AUDIENCE_CONTACTS_MAX,
  CAMPAIGN_LIST_CAP,
  CampaignIdBody,
  CampaignList,
  CampaignSchema,
  CreateCampaignBody,
  ListCampaignsBody,
  ResendCampaignBody,
} from './campaign.schema.js';
import type { CampaignService } from './campaign.service.js';

const tags = ['Campaigns'];
const campaign = Type.Ref(CampaignSchema);

/** Broadcast campaigns: create (now or scheduled), follow their counts, cancel. */
export function registerCampaignRoutes(app: Api, campaigns: CampaignService): void {
  app.addSchema(CampaignSchema);

  app.post(
    '/api/v1/actions/create-campaign',
    {
      config: { access: 'write', permission: 'campaigns' },
      schema: {
        operationId: 'createCampaign',
        tags,
        summary: 'Send an approved template to an audience, now or at a set time',
        description: `The audience is exactly one of \`{"tag": "vip"}\`, \`{"contact_ids": [...]}\` (1 to ${AUDIENCE_CONTACTS_MAX}) or \`{"search": {"query", "tag", "email"}}\` (search-contacts' filters, every match, not just 50); it is resolved when the campaign is dispatched, at \`scheduled_at\` or at once. The template is checked now as send-template-message checks it: the translation (\`language\`, default the one get-template shows) must be APPROVED and \`variables\` must fill its body placeholders, so a campaign that could not be sent is refused with 404 or 422 here rather than failing later. Variables may use {{contact.name}}, {{contact.phone}}, {{contact.email}} and {{attributes.KEY}}, filled per recipient; recipients who opted out, or for whom a placeholder has no value, are skipped. Follow progress with get-campaign; when every message has left the outbox the campaign is \`sent\` and appears in new-campaign-sent.`,
        body: CreateCampaignBody,
        response: { 200: campaign, ...actionErrors(404) },
      },
    },
    async (request) => campaigns.create(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/get-campaign',
    {
      config: { access: 'read', permission: 'campaigns' },
      schema: {
        operationId: 'getCampaign',
        tags,
        summary: 'Fetch a campaign with its live delivery counts',
        description:
          '`counts` are live and cumulative: a read message was delivered and sent, so it counts in `read`, `delivered` and `sent` (sent ≥ delivered ≥ read); `queued` and `failed` stand alone. `replied` counts recipients who wrote in after the campaign was dispatched. Status `failed` means that when it was due its template had been deleted or its translation was no longer APPROVED: nothing was sent.',
        body: CampaignIdBody,
        response: { 200: campaign, ...actionErrors(404) },
      },
    },
    async (request) => campaigns.get(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/list-campaigns',
    {
      config: { access: 'read', permission: 'campaigns' },
      schema: {
        operationId: 'listCampaigns',
        tags,
        summary: 'List campaigns, newest first',
        description: `Campaigns in \`status\` (scheduled, sending, sent, cancelled or failed; "" = all), newest first, at most ${CAMPAIGN_LIST_CAP}, each with its live counts.`,
        body: ListCampaignsBody,
        response: { 200: CampaignList, ...actionErrors() },
      },
    },
    async (request) => campaigns.list(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/resend-campaign',
    {
      config: { access: 'write', permission: 'campaigns' },
      schema: {
        operationId: 'resendCampaign',
        tags,
        summary: 'Send a sent campaign again to those who did not read it',
        description:
          'Creates a campaign of the same template, translation, variables, media header and number, addressed to the recipients of `campaign_id` whose message was sent or delivered but not read when it is dispatched (at `scheduled_at`, or now); its audience is `{"not_read_of": campaign_id}`. Recipients who opted out since are skipped, failed messages are not resent (they never arrived). A campaign is resent once: calling again (or a retry) answers the same resend rather than messaging anyone twice. 409 when the campaign is not sent yet (scheduled, sending) or was cancelled or failed; 404 when it, or its template, no longer exists; 422 when the template translation is no longer APPROVED. The campaign report shows `not_read` (how many it would reach) and `resent_as`.',
        body: ResendCampaignBody,
        response: { 200: campaign, ...actionErrors(404) },
      },
    },
    async (request) => campaigns.resend(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/cancel-campaign',
    {
      config: { access: 'write', permission: 'campaigns' },
      schema: {
        operationId: 'cancelCampaign',
        tags,
        summary: 'Cancel a scheduled or sending campaign',
        description:
          'A scheduled campaign will not be sent; a sending one stops: messages still waiting in the outbox fail with the error title "campaign cancelled" (those already handed to WhatsApp cannot be recalled). 409 when the campaign is already sent, cancelled or failed.',
        body: CampaignIdBody,
        response: { 200: campaign, ...actionErrors(404) },
      },
    },
    async (request) => campaigns.cancel(principalOf(request), request.body),
  );
}
