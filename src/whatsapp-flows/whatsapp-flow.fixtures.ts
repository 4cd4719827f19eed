/**
 * Flow JSON documents for tests, in the shape of Meta's "Flow JSON" reference
 * (developers.facebook.com/docs/whatsapp/flows/reference/flowjson): a `version`, and `screens` each with
 * an `id`, a `title`, `data` it is given, and a SingleColumnLayout of components; the last is `terminal`.
 */

/** A two-screen booking form, as Meta's Flow JSON reference builds one (pretty-printed: errors name lines). */
export const bookingFlowJson = (): string =>
  JSON.stringify(
    {
      version: '7.0',
      screens: [
        {
          id: 'BOOKING',
          title: 'Book a table',
          data: { restaurant: { type: 'string', __example__: 'Rosa' } },
          layout: {
            type: 'SingleColumnLayout',
            children: [
              { type: 'TextHeading', text: 'Book a table' },
              { type: 'TextInput', name: 'name', label: 'Your name', required: true },
              { type: 'DatePicker', name: 'day', label: 'Day' },
              {
                type: 'RadioButtonsGroup',
                name: 'seats',
                label: 'Seats',
                'data-source': [
                  { id: '2', title: 'Two' },
                  { id: '4', title: 'Four' },
                ],
              },
              {
                type: 'Footer',
                label: 'Continue',
                'on-click-action': { name: 'navigate', next: { type: 'screen', name: 'CONFIRM' }, payload: {} },
              },
            ],
          },
        },
        {
          id: 'CONFIRM',
          title: 'Confirm',
          terminal: true,
          layout: {
            type: 'SingleColumnLayout',
            children: [
              { type: 'TextBody', text: 'We will see you soon.' },
              { type: 'OptIn', name: 'reminders', label: 'Send me a reminder' },
              { type: 'Footer', label: 'Done', 'on-click-action': { name: 'complete', payload: {} } },
            ],
          },
        },
      ],
    },
    null,
    2,
  );

/** The booking form with a misspelt component type on its first screen (Meta: INVALID_PROPERTY_VALUE). */
export const misspeltFlowJson = (): string => bookingFlowJson().replace('"TextHeading"', '"TextHeadline"');

/*
 * Meta's `flows` webhook values, written from Meta's "Flows Webhooks" guide
 * (developers.facebook.com/docs/whatsapp/flows/guides/flowswebhooks): one per event, each the `value` of a
 * change with `field: "flows"`; wrap it with `accountWebhook` (src/whatsapp/webhook.delivery-fixtures.ts).
 */

/** "Flow status change": Meta moved the Flow (here: it blocked it, as its health monitoring may). */
export const flowStatusChange = (flowId: string, oldStatus: string, newStatus: string) => ({
  event: 'FLOW_STATUS_CHANGE',
  message: `Flow Webhook 3 changed status from ${oldStatus} to ${newStatus}`,
  flow_id: flowId,
  old_status: oldStatus,
  new_status: newStatus,
});

/** "Endpoint error rate": the guide's example shape (the same as "Client error rate"). */
export const endpointErrorRate = (flowId: string) => ({
  event: 'ENDPOINT_ERROR_RATE',
  message: 'The flow endpoint error rate has reached the 10% threshold in the last 30 minutes.',
  flow_id: flowId,
  error_rate: 14.28,
  threshold: 10,
  alert_state: 'ACTIVATED',
  errors: [
    { error_type: 'TIMEOUT', error_rate: 66.66, error_count: 2 },
    { error_type: 'INVALID_RESPONSE', error_rate: 33.33, error_count: 1 },
  ],
});

/** "Endpoint latency": the p90 latency went over the threshold (milliseconds). */
export const endpointLatency = (flowId: string) => ({
  event: 'ENDPOINT_LATENCY',
  message: 'Flow endpoint latency has reached the p90 threshold of 7s in the last 30 minutes.',
  flow_id: flowId,
  p90_latency: 8000,
  p50_latency: 500,
  requests_count: 34,
  threshold: 7000,
  alert_state: 'ACTIVATED',
});

/** "Flow version expiry warning": the Flow JSON version the Flow uses is about to freeze. */
export const flowVersionExpiryWarning = (flowId: string) => ({
  event: 'FLOW_VERSION_EXPIRY_WARNING',
  warning: 'Your current Flow version will freeze in 21 days. Update the Flow to the latest version.',
  flow_id: flowId,
});
