/**
 * src/messages/'s front door: messages in and out: sending, the outbox, receiving, statuses, media. Other
 * folders import it only through here.
 */
export { type BusinessAppService, createBusinessAppService } from './business-app.js';
export { callRepository, type CallService, createCallService } from './calls.js';
export { conversationSpans } from './conversation-spans.js';
export { deliveryCounts } from './delivery-counts.js';
export {
  type GroupAuthor,
  groupMessagePosition,
  groupMessages,
  groupThread,
  presentGroupMessages,
} from './group-messages.js';
export { plainReason } from './error-reasons.js';
export {
  createInboundService,
  type InboundListener,
  type InboundService,
  type ReceivedMessage,
  type ReceiveOutcome,
} from './inbound.js';
export {
  type FlowAnswer,
  type FlowMessageInput,
  filledFlowMessage,
  type FlowSendProblem,
  type PreparedFlowSend,
  type WhatsappFlowMessages,
  flowAnswerOf,
  flowSendRepository,
  isFlowSendProblem,
} from './flow-sends.js';
export { createMediaDownloader } from './media-download.js';
export { createMediaRetention, retentionChanged } from './media-retention.js';
export { createMediaUploadService } from './media-upload.js';
export { createMediaService, type MediaService } from './media.js';
export { registerMediaRoutes } from './media.routes.js';
export { registerMessageListRoutes } from './message-list.routes.js';
export { presentMessage } from './message.presenter.js';
export { messageText } from './message.record.js';
export { messageRepository, type MessageRow } from './message.repository.js';
export { registerMessageRoutes } from './message.routes.js';
export {
  CALL_OUTCOMES,
  type ConversationCall,
  ConversationCallSchema,
  HeaderMediaUrl,
  ListedMessageSchema,
  SenderSchema,
  type Message,
  MessageSchema,
  SendMediaBody,
  SendTemplateBody,
  SendTextBody,
  TemplateVariables,
  TEXT_MAX_LENGTH,
} from './message.schema.js';
export { answerSend, HELD_ANSWER, HELD_SENDS, registerHeldSendRoutes } from './approvals/held-send.routes.js';
export { HeldSendSchema, type HeldSend } from './approvals/held-send.schema.js';
export { isHeld } from './approvals/held-sends.js';
export {
  type SendAnswer,
  createMessageService,
  type GroupContentInput,
  type MessageEvents,
  type MessageService,
} from './message.service.js';
export { createOutbound, type GroupRecipient, type Outbound } from './outbound/outbound.js';
export { type OutboundRow, prepareOutbound, queueOutbound } from './outbound/queue.js';
export { isRefusal, isWindowOpen, windowClosesAt } from './outbound/rules.js';
export { fillVariables, mapVariables, variableValues } from './outbound/template-variables.js';
export { checkHeaderMedia, templateContent } from './outbound/template.js';
export { createOutbox } from './outbox.js';
export { createReadReceiptService } from './read-receipt.js';
export { latestMessages } from './recent-messages.js';
export { type MessageSender, namedSenders } from './senders.js';
export { emitStatusChanges } from './status-events.js';
export { createStatusService, type StatusService } from './statuses.js';
