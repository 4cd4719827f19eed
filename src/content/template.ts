/**
 * What a template message stores: enough to build Meta's request later without reading the
 * template again (it may change while the message waits), and the rendered text for people.
 * Fields marked optional were added later; messages stored before them lack them.
 */
export interface TemplateContent {
  template_id: string;
  template_name: string;
  /** Meta's category (MARKETING, UTILITY, AUTHENTICATION): contacts who opted out get no marketing. */
  category: string;
  language: string;
  body_parameters: string[];
  /** A NAMED template's body placeholder names, in `body_parameters` order (Meta's `parameter_name`). */
  body_parameter_names?: string[];
  header:
    | { type: 'image' | 'video' | 'document'; link: string }
    | { type: 'text'; parameters: string[]; parameter_names?: string[] }
    | null;
  /** URL buttons' suffixes; an OTP button's one-time code. */
  url_button_parameters: { index: number; text: string }[];
  copy_code_parameters?: { index: number; coupon_code: string }[];
  /**
   * A FLOW button: the Flow it opens (Meta's id; '' when the template names it only by name until a sync)
   * and the send's `flow_token`, which the queued row is given (its message id: queue.ts).
   */
  flow_button_parameters?: { index: number; meta_flow_id: string; flow_token?: string }[];
  /** A limited-time offer's end (Unix time, ms), when the template's offer expires. */
  offer_expiration_time_ms?: number;
  text: string;
  /** For people, as WhatsApp shows the message: the text header filled in, the footer, the buttons' labels. */
  header_text?: string | null;
  footer?: string | null;
  buttons?: { type: string; text: string }[];
}
