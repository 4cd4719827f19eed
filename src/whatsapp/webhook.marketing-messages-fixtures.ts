/**
 * What Meta sends about messages sent through its Marketing Messages API (`/marketing_messages`),
 * shaped after Meta's pages named beside each: the status webhook (the usual `statuses[]`, priced as
 * `marketing_lite`) and the click report (`user_actions[]`). Ids, numbers and times are the tests' own.
 */

type Json = Record<string, unknown>;
/** The business number a change names, and its account. */
export type MarketingLine = { phoneNumberId: string; wabaId: string };

const DISPLAY_PHONE_NUMBER = '15550783881';

function messagesChange(line: MarketingLine, parts: Json): Json {
  const value = {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: DISPLAY_PHONE_NUMBER, phone_number_id: line.phoneNumberId },
    ...parts,
  };
  return { object: 'whatsapp_business_account', entry: [{ id: line.wabaId, changes: [{ value, field: 'messages' }] }] };
}

const unix = (at: Date) => String(Math.floor(at.getTime() / 1000));

/**
 * A status of a message the Marketing Messages API took: "the webhook payload will have category and
 * conversation.origin.type set to marketing_lite" (developers.facebook.com/docs/whatsapp/
 * marketing-messages-lite-api/get-started, "Verify message was sent through the status webhook").
 */
export function marketingStatusWebhook(
  line: MarketingLine,
  status: { wamid: string; recipient: string; status: 'sent' | 'delivered' | 'read'; at: Date; callbackData?: string },
): Json {
  return messagesChange(line, {
    statuses: [
      {
        id: status.wamid,
        status: status.status,
        timestamp: unix(status.at),
        recipient_id: status.recipient,
        ...(status.callbackData !== undefined && { biz_opaque_callback_data: status.callbackData }),
        conversation: { id: 'a75d17ad06104c51166f948319b03c6a', origin: { type: 'marketing_lite' } },
        pricing: { billable: true, pricing_model: 'PMP', category: 'marketing_lite', type: 'regular' },
      },
    ],
  });
}

/**
 * A customer clicked a marketing message's body or call-to-action: `user_actions[]` on the messages
 * field, action_type `marketing_messages_link_click` (developers.facebook.com/documentation/
 * business-messaging/whatsapp/marketing-messages/track-click-events). Meta names the click, not the
 * message or the customer.
 */
export function linkClickWebhook(
  line: MarketingLine,
  click: { at: Date; component: 'cta' | 'body'; clickId: string },
): Json {
  return messagesChange(line, {
    user_actions: [
      {
        action_type: 'marketing_messages_link_click',
        timestamp: unix(click.at),
        marketing_messages_link_click_data: {
          click_component: click.component,
          product_id: 'sku_4711',
          click_id: click.clickId,
          tracking_token: 'AQx7-tracking-token',
        },
      },
    ],
  });
}
