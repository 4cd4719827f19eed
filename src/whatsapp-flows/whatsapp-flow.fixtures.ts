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
