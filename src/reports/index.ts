/**
 * src/reports/'s front door: reports on agents, teams, campaigns and volume. Other folders import it only
 * through here.
 */
export { createAiReport } from './ai-report.js';
export { registerAiReportRoutes } from './ai-report.routes.js';
export { registerCampaignReportRoutes } from './campaign-report.routes.js';
export { registerCampaignEstimateRoutes } from './campaign-estimate.routes.js';
export { estimateCampaign } from './campaign-estimate.js';
export { CampaignEstimate } from './cost.schema.js';
export { registerCostLedgerRoutes } from './cost-ledger.routes.js';
export { messageCosts } from './message-cost.js';
export { ImportRateCardBody, registerReportRoutes } from './report.routes.js';
export { createReportService, type ReportService } from './report.service.js';
export type { RateCardData } from './report.types.js';
export { createTeamReport } from './team-report.js';
export { registerTeamReportRoutes } from './team-report.routes.js';
export { registerVolumeRoutes } from './volume.routes.js';
export { createVolumeReport } from './volume.service.js';
