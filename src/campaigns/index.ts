/**
 * src/campaigns/'s front door: broadcast campaigns. Other folders import it only through here.
 */
export { campaignTemplateCheck, storedVariables } from './campaign.content.js';
export { createCampaignJobs } from './campaign.dispatch.js';
export { CampaignReviewBody, type CampaignReviewInput, reviewCampaign } from './campaign.review.js';
export { registerCampaignRoutes } from './campaign.routes.js';
export { SampleSendBody, sendSample } from './campaign.sample.js';
export {
  campaignDefinition,
  type CampaignDefinition,
  insertScheduledCampaign,
  replaceScheduledCampaign,
} from './campaign.schedule.js';
export {
  type Audience,
  AUDIENCE_CONTACTS_MAX,
  CAMPAIGN_STATUSES,
  type CampaignStatus,
  CampaignVariables,
  CreateCampaignBody,
  ListCampaignsBody,
  MessagingLimitSchema,
  OverLimit,
} from './campaign.schema.js';
export { createCampaignService, repliedSince } from './campaign.service.js';
