/**
 * src/channels/'s front door: a workspace's numbers and the channel port (providers, channel events) the
 * adapters implement. Other folders import it only through here.
 */
export {
  type AccountEvent,
  type Amendment,
  type CallEvent,
  type ChannelEvent,
  type ContactBookEvent,
  DELIVERY_STATUSES,
  type DeliveryStatus,
  type EchoEvent,
  type GroupEvent,
  type GroupParticipant,
  type HistoryEvent,
  type HistoryMessage,
  type InboundMessageEvent,
  type MarketingPreferenceEvent,
  MESSAGE_TYPES,
  type MessageType,
  type StatusDelivery,
  type StatusError,
  type StatusEvent,
  type TemplateCategoryEvent,
  type TemplateQualityEvent,
  type TemplateStatusEvent,
} from './channel-events.js';
export { registerChannelDashboardRoutes, registerChannelRoutes } from './channel.routes.js';
export { AddChannelBody, newChannelOf } from './channel.schema.js';
export { type ChannelService, createChannelService, type NumberRoute, type SendingChannel } from './channel.service.js';
export {
  ChannelError,
  type ChannelProvider,
  type ChannelTemplate,
  type CloudChannel,
  type CloudConnector,
  type ChannelFlow,
  type CloudNumber,
  type FlowsPublicKey,
  type FlowValidationError,
  type LibraryTemplateSubmission,
  type MediaFile,
  type NumberDescription,
  type SendError,
  type SendOutcome,
  type TemplateComponent,
  type TemplateOutcome,
  type TemplateRefusal,
  type TemplateSubmission,
  type WhatsappFlowsApi,
} from './provider.js';
export { createMarketingMessagesSettings, type MarketingMessagesSettingsService } from './marketing-messages.js';
export { registerMarketingMessagesRoutes } from './marketing-messages.routes.js';
export { type PortfolioLimit } from './portfolio-limit.js';
export { createSimulatorProvider } from './simulator.provider.js';
export { readSample, sampleMediaId, SIMULATOR_SAMPLES } from './simulator.samples.js';
