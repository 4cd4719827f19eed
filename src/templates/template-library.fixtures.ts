/**
 * Meta's "Template Library" (WhatsApp Business Management API): a library template as
 * `GET /message_template_library` lists it (name, language, category, topic, use case, industry, the
 * fixed body with its sample parameters, the buttons whose URL or number the business gives), and the
 * request that makes a template of it (`POST /{waba-id}/message_templates` with `library_template_name`
 * and `library_template_button_inputs`: a URL button's `base_url` and `url_suffix_example`).
 */
export interface LibraryTemplate {
  name: string;
  language: string;
  category: string;
  topic: string;
  usecase: string;
  industry: string[];
  body: string;
  body_params: string[];
  body_param_types: string[];
  buttons: { type: string; text: string }[];
  id: string;
}

export const deliveryUpdateLibraryTemplate: LibraryTemplate = {
  name: 'delivery_update_1',
  language: 'en_US',
  category: 'UTILITY',
  topic: 'ORDER_MANAGEMENT',
  usecase: 'SHIPMENT_UPDATE',
  industry: ['E_COMMERCE'],
  body: 'Good news! Your order {{1}} is on its way. Tap below to track it.',
  body_params: ['#12345'],
  body_param_types: ['TEXT'],
  buttons: [{ type: 'URL', text: 'Track order' }],
  id: '7138055039625660',
};

/** Meta's library, as the Graph API stand-in knows it. */
export const templateLibrary = [deliveryUpdateLibraryTemplate];
