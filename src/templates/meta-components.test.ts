import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { metaComponents, neededExamples } from './meta-components.js';
import { fieldOfReason } from './template-submission.js';

describe('metaComponents', () => {
  test("a media header is sent with its asset handle as Meta's header_handle sample", () => {
    // Meta's "Create and manage templates": `{"type": "HEADER", "format": "IMAGE", "example": {"header_handle": ["4::aW…"]}}`.
    const built = metaComponents({ body: 'Hello', header_type: 'IMAGE', header_content: '4::aW1hZ2UvcG5n:ARb' });
    assert.deepEqual(built, {
      components: [
        { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aW1hZ2UvcG5n:ARb'] } },
        { type: 'BODY', text: 'Hello' },
      ],
    });
  });

  test('a text without variables needs no samples, and takes none', () => {
    assert.deepEqual(neededExamples({ body: 'Hello', header_type: 'TEXT', header_content: 'Hi' }), []);
    assert.deepEqual(metaComponents({ body: 'Hello', examples: { '1': 'x' } }), {
      problems: [
        {
          field: 'examples',
          message: '1: no such variable',
          code: 'templates.samples_unknown',
          params: { variables: '1' },
        },
      ],
    });
  });

  test('samples follow the pick-list order: body numbers, header, then URL buttons by index', () => {
    const needed = neededExamples({
      body: '{{2}} and {{1}}',
      header_type: 'TEXT',
      header_content: 'For {{1}}',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Stop' },
        { type: 'URL', text: 'Open', url: 'https://example.com/{{1}}' },
      ],
    });
    assert.deepEqual(needed, ['1', '2', 'header_1', 'button_1_1']);
  });

  test("a NAMED template's samples are Meta's named params; a copy-code button's sample is its coupon", () => {
    // Meta's "Create and manage templates" (named parameters) and "Copy code buttons" examples.
    const built = metaComponents({
      body: 'Thank you, {{first_name}}! Your order number is {{order_number}}.',
      header_type: 'TEXT',
      header_content: 'Our {{sale_name}} is on!',
      parameter_format: 'NAMED',
      buttons: [{ type: 'COPY_CODE', text: 'Copy offer code' }],
      examples: {
        first_name: 'Pablo',
        order_number: '860198-230332',
        header_sale_name: 'Summer Sale',
        button_0_coupon_code: '250FF',
      },
    });
    assert.deepEqual(built, {
      components: [
        {
          type: 'HEADER',
          format: 'TEXT',
          text: 'Our {{sale_name}} is on!',
          example: { header_text_named_params: [{ param_name: 'sale_name', example: 'Summer Sale' }] },
        },
        {
          type: 'BODY',
          text: 'Thank you, {{first_name}}! Your order number is {{order_number}}.',
          example: {
            body_text_named_params: [
              { param_name: 'first_name', example: 'Pablo' },
              { param_name: 'order_number', example: '860198-230332' },
            ],
          },
        },
        { type: 'BUTTONS', buttons: [{ type: 'COPY_CODE', example: '250FF' }] },
      ],
    });
  });
});

describe('fieldOfReason', () => {
  test("names the field Meta's words mention, else the body", () => {
    assert.equal(fieldOfReason('Content in this language already exists: …'), 'language');
    assert.equal(fieldOfReason('Invalid parameter: Button at index 0 has an invalid URL'), 'buttons');
    assert.equal(fieldOfReason('Invalid variable: The body text contains variables at the start'), 'body');
  });
});
