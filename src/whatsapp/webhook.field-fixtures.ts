/**
 * One change of each webhook field Meta documents that Parley does not (yet) model, or models and also
 * records (the app's contact book), each shaped after
 * its page of Meta's webhook reference, developers.facebook.com/documentation/business-messaging/whatsapp/
 * webhooks/reference/<field>/ (named beside each; ids and values are the tests' own). Parley records
 * each whole in the workspace event log rather than dropping it.
 */

type Json = Record<string, unknown>;
/** The business number a change names. */
type Line = { phoneNumberId: string; displayPhoneNumber: string };

/** Where a change is routed: by the business number its `metadata` names, else by the account. */
export type FieldRoute = 'number' | 'account';

export interface DocumentedField {
  field: string;
  route: FieldRoute;
  /** The change's `value`, for a number's phone_number_id and display number. */
  value: (line: Line) => Json;
}

const metadataOf = (line: Line) => ({
  messaging_product: 'whatsapp',
  metadata: { display_phone_number: line.displayPhoneNumber, phone_number_id: line.phoneNumberId },
});

/** A group webhook's value: one change of the test's group, at the same time. */
const groupsOf = (line: Line, change: Json) => ({
  ...metadataOf(line),
  groups: [
    { timestamp: '1739321024', group_id: 'Y2FwaV9ncm91cDoxNzA1NTU1MDEzOToxMjAzNjM0MDQ2OTQyMzM4MjAZD', ...change },
  ],
});

export const DOCUMENTED_FIELDS: DocumentedField[] = [
  {
    // reference/account_review_update/
    field: 'account_review_update',
    route: 'account',
    value: () => ({ decision: 'APPROVED' }),
  },
  {
    // reference/automatic_events/: a purchase detected in a Click to WhatsApp ad's thread.
    field: 'automatic_events',
    route: 'number',
    value: (line) => ({
      ...metadataOf(line),
      automatic_events: [
        {
          id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUY1OEE4RDM5QzA4RkU5Rjk3MQA=',
          event_name: 'Purchase',
          timestamp: '1739321024',
          ctwa_clid: 'Afc3nYt2TTG6Hy1d2D2VV4gFvc7TZkDjq6y2cqmqpBhFT8KpoZ1VIn2tG7sNvsgKMWxKoE_yQ1iO',
          custom_data: { currency: 'USD', value: 25 },
        },
      ],
    }),
  },
  {
    // reference/business_capability_update/: the portfolio's messaging limit (since October 2025).
    field: 'business_capability_update',
    route: 'account',
    value: () => ({ max_daily_conversations_per_business: 'TIER_2K', max_phone_numbers_per_business: 2 }),
  },
  {
    // reference/calls/: a user's call reaching the business (the connect event, with its SDP offer).
    field: 'calls',
    route: 'number',
    value: (line) => ({
      ...metadataOf(line),
      contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: '16505551234' }],
      calls: [
        {
          id: 'wacid.HBgLMTY1MDM4Nzk0MzkVAgARGCA2QTk0NkE3NjI5MzIwNjc3RkY0MjBGMDA0MEIwMEMA',
          from: '16505551234',
          to: line.displayPhoneNumber,
          event: 'connect',
          timestamp: '1739321024',
          direction: 'USER_INITIATED',
          session: { sdp_type: 'offer', sdp: 'v=0\r\no=- 7669997803033704573 2 IN IP4 127.0.0.1\r\n' },
        },
      ],
    }),
  },
  {
    // reference/flows/: a WhatsApp Flow's status changed.
    field: 'flows',
    route: 'account',
    value: () => ({
      event: 'FLOW_STATUS_CHANGE',
      message: 'Flow Webhook Example changed status from DRAFT to PUBLISHED',
      flow_id: '1234567890123456',
      old_status: 'DRAFT',
      new_status: 'PUBLISHED',
    }),
  },
  {
    // reference/group_lifecycle_update/: a group the business created.
    field: 'group_lifecycle_update',
    route: 'number',
    value: (line) =>
      groupsOf(line, {
        type: 'group_create',
        request_id: '6d5e7f3a-1c2b-4e8a-9f0d-2b3c4d5e6f70',
        subject: 'Spring launch',
        invite_link: 'https://chat.whatsapp.com/ExampleInviteCode123',
      }),
  },
  {
    // reference/group_participants_update/: a user joined by the invite link.
    field: 'group_participants_update',
    route: 'number',
    value: (line) =>
      groupsOf(line, {
        type: 'group_participants_add',
        reason: 'invite_link',
        added_participants: [{ input: '16505551234', wa_id: '16505551234' }],
      }),
  },
  {
    // reference/group_settings_update/: the subject changed.
    field: 'group_settings_update',
    route: 'number',
    value: (line) =>
      groupsOf(line, {
        type: 'group_settings_update',
        request_id: '6d5e7f3a-1c2b-4e8a-9f0d-2b3c4d5e6f71',
        group_subject: { text: 'Spring launch, day 2', update_successful: true },
      }),
  },
  {
    // reference/group_status_update/: Meta suspended a group.
    field: 'group_status_update',
    route: 'number',
    value: (line) =>
      groupsOf(line, {
        type: 'group_suspend',
      }),
  },
  {
    // reference/message_template_components_update/: an approved template's components changed.
    field: 'message_template_components_update',
    route: 'account',
    value: () => ({
      message_template_id: 1315502779341834,
      message_template_name: 'order_confirmation',
      message_template_language: 'en_US',
      message_template_element: 'Thank you for your order, {{1}}! Your order number is {{2}}.',
      message_template_footer: 'Lucky Shrub',
    }),
  },
  {
    // reference/payment_configuration_update/
    field: 'payment_configuration_update',
    route: 'account',
    value: () => ({
      configuration_name: 'lucky-shrub-razorpay',
      provider_name: 'razorpay',
      provider_mid: 'acc_12345',
      status: 'Active',
      created_timestamp: 1739321024,
      updated_timestamp: 1739321024,
    }),
  },
  {
    // reference/phone_number_name_update/: the display name's review.
    field: 'phone_number_name_update',
    route: 'account',
    value: (line) => ({
      display_phone_number: line.displayPhoneNumber,
      decision: 'APPROVED',
      requested_verified_name: 'Lucky Shrub',
      rejection_reason: null,
    }),
  },
  {
    // reference/security/: the number's two-step verification PIN changed.
    field: 'security',
    route: 'account',
    value: (line) => ({ display_phone_number: line.displayPhoneNumber, event: 'PIN_CHANGED', requester: '2882' }),
  },
  {
    // reference/smb_app_state_sync/: a contact added in the WhatsApp Business app's contact book.
    field: 'smb_app_state_sync',
    route: 'number',
    value: (line) => ({
      ...metadataOf(line),
      state_sync: [
        {
          type: 'contact',
          contact: { full_name: 'Sheena Nelson', first_name: 'Sheena', phone_number: '16505551234' },
          action: 'add',
          metadata: { timestamp: '1739321024' },
        },
      ],
    }),
  },
  {
    // reference/template_category_update/: the notice 24 hours before Meta recategorizes a template
    // (`new_category` is its current category, `correct_category` the one it will get).
    field: 'template_category_update',
    route: 'account',
    value: () => ({
      message_template_id: 278077987957091,
      message_template_name: 'welcome_template',
      message_template_language: 'en-US',
      correct_category: 'MARKETING',
      new_category: 'UTILITY',
      category_update_timestamp: 1760711433,
    }),
  },
];

/** A field Meta has not documented yet (or invented after this code): recorded all the same. */
export const UNKNOWN_FIELD: DocumentedField = {
  field: 'a_field_meta_adds_later',
  route: 'account',
  value: () => ({ event: 'SOMETHING_NEW', detail: { nested: [1, 2, 3] } }),
};
