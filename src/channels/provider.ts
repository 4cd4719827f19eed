import type { OutboundContent } from '../content/message-content.js';

/** A file to upload: its bytes, MIME type and (for documents) the name the customer sees. */
export interface MediaFile {
  bytes: Buffer;
  mimeType: string;
  filename: string;
}

/** A template as the channel lists it (WhatsApp: `GET /{waba-id}/message_templates`). */
export interface ChannelTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  /** NAMED when the placeholders are names (`{{first_name}}`); Meta omits it or says POSITIONAL otherwise. */
  parameter_format?: string;
  components: TemplateComponent[];
  /** The Template Library template it was made from (Meta's "Template Library"), when it was. */
  library_template_name?: string;
}

/** A business phone number as the channel describes it (WhatsApp: `GET /{phone-number-id}`). */
export interface CloudNumber {
  id: string;
  display_phone_number: string;
  verified_name: string;
  /** GREEN, YELLOW, RED or UNKNOWN; null when Meta leaves it out. */
  quality_rating: string | null;
}

/**
 * What the channel says about connecting a number. A refusal names what Meta would not confirm: the token itself, reading the
 * number, reading the WABA, or the number being one of the WABA's; `metaMessage` is Meta's own words.
 */
export type NumberDescription =
  | { connectable: true; number: CloudNumber }
  | {
      connectable: false;
      refused: 'access_token' | 'phone_number' | 'waba' | 'not_in_waba';
      metaMessage: string | null;
    };

/** One component of a template (HEADER, BODY, FOOTER, BUTTONS …), in the shape WhatsApp defines and Parley stores. */
export interface TemplateComponent {
  type: string;
  format?: string;
  text?: string;
  /** An authentication template's BODY: Meta adds its security sentence. */
  add_security_recommendation?: boolean;
  /** An authentication template's FOOTER: the minutes Meta says the code lasts. */
  code_expiration_minutes?: number;
  buttons?: {
    type: string;
    text?: string;
    url?: string;
    phone_number?: string;
    otp_type?: string;
    /** A one-tap or zero-tap OTP button's Android apps (Meta's "Authentication templates"). */
    supported_apps?: { package_name: string; signature_hash: string }[];
    /** A zero-tap OTP button: the business accepted Meta's zero-tap terms. */
    zero_tap_terms_accepted?: boolean;
    /** A FLOW button's Flow (Meta's id, or its name) and how it opens ("Sending a Flow"). */
    flow_id?: string;
    flow_name?: string;
    flow_action?: string;
    navigate_screen?: string;
    /** A URL button's sample URL; a copy-code button's sample coupon (a plain string). */
    example?: string[] | string;
  }[];
  example?: Record<string, unknown>;
}

/**
 * The channel refused or could not be asked (the adapter's own error classes extend this one, so the
 * core handles a refusal without knowing the channel). `code` is the channel's error code, if any.
 */
export class ChannelError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** One message to send: Parley's id travels with it so the channel's status reports can name it. */
export interface SendRequest {
  messageId: string;
  /** The recipient as the channel addresses them (E.164 for WhatsApp), or a group's id. */
  to: string;
  /** `to` names a WhatsApp group (Meta's Groups API), not a person. */
  toGroup?: boolean;
  message: OutboundContent;
  /** Through Meta's Marketing Messages API (a MARKETING template of a workspace that turned it on). */
  marketingMessages?: boolean;
}

/** A send failure as the message keeps it: the channel's code, its title and details. */
export interface SendError {
  code: number | null;
  title: string;
  details: string | null;
}

/**
 * What became of a send, classified once, by the provider:
 * - `accepted`: the channel took it and gave its id;
 * - `retry`: it cannot have gone out and may succeed later (throughput, an outage), after `afterMs` if the
 *   channel said when;
 * - `failed`: final for this message, never retried automatically; `windowClosed` when the channel says the
 *   contact's customer service window is closed;
 * - `unknown`: the request may have reached the channel and the answer was lost: sending again could
 *   deliver it twice.
 */
export type SendOutcome =
  /** `via`: the channel took it through Meta's Marketing Messages API. */
  | { outcome: 'accepted'; providerMessageId: string; via?: 'marketing_messages' }
  /** `throttled`: the number sends faster than the channel allows (every process slows down for it). */
  | { outcome: 'retry'; error: SendError; afterMs: number | null; throttled: boolean }
  | { outcome: 'failed'; error: SendError; windowClosed: boolean }
  | { outcome: 'unknown'; error: SendError };

/** A media file a customer sent, fetched from the channel and checked against its digest. */
export interface FetchedMedia {
  bytes: Buffer;
  /** Hex SHA-256 of `bytes`. */
  sha256: string;
  mimeType: string;
}

/** One template translation as the channel reviews it (Meta's name, language, category and components). */
export interface TemplateSubmission {
  name: string;
  language: string;
  category: string;
  /** NAMED for `{{first_name}}` placeholders; Meta's default is POSITIONAL. */
  parameter_format?: 'NAMED';
  components: TemplateComponent[];
  /** Meta's time-to-live of the template's messages, in seconds; absent: Meta's default (or unchanged). */
  message_send_ttl_seconds?: number;
}

/**
 * A translation made from a template of Meta's Template Library: Meta writes its content, the business
 * gives only its buttons' URLs or numbers and the body's options (Meta's "Template Library").
 */
export interface LibraryTemplateSubmission {
  name: string;
  language: string;
  category: string;
  library_template_name: string;
  library_template_button_inputs?: object[];
  library_template_body_inputs?: object;
}

/**
 * What the channel said to a template submission: accepted for review under its id (with the status
 * it gave), or refused with its reason. `reviewsAfterMs` is set when the channel will send no status
 * webhook and Parley must apply its decision (APPROVED) itself after that delay: the simulator.
 */
export type TemplateOutcome =
  { outcome: 'accepted'; metaTemplateId: string; status: string; reviewsAfterMs: number | null } | TemplateRefusal;

/** The channel refused a template request; `reason` is its own words. */
export interface TemplateRefusal {
  outcome: 'refused';
  reason: string;
}

/** A workspace's channel to its customers (Chatwoot's provider services are the model). */
export interface ChannelProvider {
  /** True for the simulator: nothing leaves Parley, and customers' messages can be simulated. */
  readonly simulated: boolean;
  /** Sends are paced to at most `perSecond` per `key` (a business number); null: no pacing. */
  readonly pace: { key: string; perSecond: number } | null;
  send(request: SendRequest): Promise<SendOutcome>;
  /** Every message template of the channel's account, as the channel describes them. */
  syncTemplates(): AsyncIterable<ChannelTemplate>;
  fetchMedia(mediaId: string): Promise<FetchedMedia>;
  /** Tells the customer their message was read (blue ticks), and with `typing` that a reply is being written. */
  markRead(providerMessageId: string, typing?: boolean): Promise<void>;
  /** Uploads a file for media messages to name; resolves with the channel's media id. */
  uploadMedia(file: MediaFile): Promise<string>;
  /** Submits a new template translation for review (written here, or from Meta's Template Library). */
  submitTemplate(template: TemplateSubmission | LibraryTemplateSubmission): Promise<TemplateOutcome>;
  /** One template translation as the channel lists it, by the channel's id (WhatsApp: `GET /{template-id}`). */
  template(metaTemplateId: string): Promise<ChannelTemplate>;
  /** Submits an edited translation (its category and components) for review again. */
  editTemplate(metaTemplateId: string, template: TemplateSubmission): Promise<TemplateOutcome>;
  /** Deletes a template: one translation when its id is given, else every language of the name. */
  deleteTemplate(name: string, metaTemplateId?: string): Promise<{ outcome: 'deleted' } | TemplateRefusal>;
  /**
   * Asks the channel to create a WhatsApp group on this number (Meta's Groups API); the group's id and
   * invite link arrive later by webhook. Resolves with the request's id, which that webhook names.
   */
  createGroup(group: NewGroup): Promise<string>;
  /** A group's current invite link (Meta's Groups API: the only way people join). */
  groupInviteLink(groupId: string): Promise<string>;
  /**
   * Registers the number's business public key (PEM), which WhatsApp Flows encrypt their data requests
   * to; it replaces any earlier one. Refused: a 409 in the channel's words.
   */
  setFlowsPublicKey(publicKeyPem: string): Promise<void>;
  /** The business public key the channel holds for the number and its signature status; null when it holds none. */
  flowsPublicKey(): Promise<FlowsPublicKey | null>;
  /** The WhatsApp Flows (Meta's forms) of the channel's WhatsApp Business Account: Meta's Flows API. */
  readonly whatsappFlows: WhatsappFlowsApi;
}

/** A number's business public key as the channel holds it (WhatsApp: `GET /{phone-number-id}/whatsapp_business_encryption`). */
export interface FlowsPublicKey {
  /** The key in PEM; null when the channel only says its status. */
  publicKey: string | null;
  /** Meta's VALID (signed) or MISMATCH (the signature does not match the key: register it again). */
  signatureStatus: string;
}

/**
 * Meta's Flows API on one WhatsApp Business Account. Meta's refusal (a name taken, publishing a Flow with
 * errors, deleting one that is not a draft) is thrown as a 409 in Meta's words; the simulator refuses all.
 */
export interface WhatsappFlowsApi {
  /** `POST /{waba-id}/flows`: a new DRAFT Flow (a copy of `cloneFlowId`'s Flow JSON when given); its id. */
  create(flow: { name: string; categories: string[]; cloneFlowId?: string }): Promise<string>;
  /** `POST /{flow-id}/assets`: uploads the Flow JSON document; Meta keeps it and answers its validation errors. */
  uploadJson(flowId: string, flowJson: string): Promise<FlowValidationError[]>;
  publish(flowId: string): Promise<void>;
  deprecate(flowId: string): Promise<void>;
  /** Only a DRAFT Flow can be deleted. */
  delete(flowId: string): Promise<void>;
  /** `GET /{flow-id}` with its status, validation errors and preview link. */
  get(flowId: string): Promise<ChannelFlow>;
  /** Every Flow of the WhatsApp Business Account, Meta's pages read as they are consumed. */
  list(): AsyncIterable<ChannelFlow>;
}

/** A Flow as Meta's Flows API describes it. */
export interface ChannelFlow {
  id: string;
  name: string;
  status: string;
  categories: string[];
  validation_errors: FlowValidationError[];
  /** Meta's `preview`: a link that shows the Flow as WhatsApp would, until `expires_at`. */
  preview?: { preview_url: string; expires_at: string };
}

/** One of Meta's validation errors of a Flow JSON document, naming where it is (Meta's fields, as given). */
export interface FlowValidationError {
  error: string;
  error_type: string;
  message: string;
  line_start?: number;
  line_end?: number;
  column_start?: number;
  column_end?: number;
  pointers?: { line_start: number; line_end: number; column_start: number; column_end: number; path: string }[];
}

/** A WhatsApp group to create: Meta trims the subject and caps it at 128 characters, the description at 2048. */
export interface NewGroup {
  subject: string;
  description: string | null;
  /** Whether people who open the invite link wait for the business's approval. */
  joinApproval: boolean;
}

/** A workspace's WhatsApp Cloud number and the token it sends with. */
export interface CloudChannel {
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
  messagesPerSecond: number;
}

/** How the core reaches cloud numbers: the WhatsApp adapter (src/whatsapp) implements it. */
export interface CloudConnector {
  /**
   * What the channel says, asked with `accessToken`, about connecting a business number of account
   * `wabaId`. Throws a ChannelError only when the channel could not be asked; a refusal is an answer.
   */
  describeNumber(phoneNumberId: string, wabaId: string, accessToken: string): Promise<NumberDescription>;
  /** The provider that sends through one number. */
  provider(channel: CloudChannel): ChannelProvider;
}
