import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cliJson } from '../../test/cli.js';
import { createTemplate } from '../../test/factories.js';
import { ENGINE } from '../../test/server.js';
import { API_VERSION, startWhatsappServer, type CloudWorkspace } from '../../test/whatsapp.js';
import type { Message } from '../messages/message.schema.js';
import type { SyncResult } from './template-sync.js';
import type { Template } from './template.schema.js';
import {
  authenticationTemplate,
  carouselTemplate,
  couponTemplate,
  everyKind,
  imageTemplate,
  limitedTimeOfferTemplate,
  namedTemplate,
  zeroTapTemplate,
} from './template-parameters.fixtures.js';
import { deliveryUpdateLibraryTemplate } from './template-library.fixtures.js';

/**
 * Every template Meta offers, synced from the WABA and sent through HTTPS; each send's request is
 * asserted against the Graph API stand-in as Meta's "Send message templates" guides document it.
 */

const { graph, server, cloudWorkspace } = await startWhatsappServer({ outbox: true });

interface Choice {
  id: string;
  label: string;
}

interface Mismatch {
  code: string;
  needed: string[];
  missing: string[];
  unknown: string[];
}

/** A WhatsApp Cloud workspace with every kind of template synced from its WABA (`parley templates sync`). */
async function syncedWorkspace() {
  const cloud = await cloudWorkspace();
  graph.setTemplates(cloud.wabaId, everyKind);
  const result = await cliJson<SyncResult>(server, ...['templates', 'sync', '--workspace', cloud.ws.workspaceId]);
  const listed = await cloud.ws.action<Template[]>('list-templates', {});
  const byName = (name: string) => listed.body.find((t) => t.name === name)!;
  return { cloud, result, byName };
}

/** Sends a template through HTTPS, lets the outbox deliver it and returns what Meta received. */
async function sendAndDeliver(cloud: CloudWorkspace, body: object) {
  const queued = await cloud.ws.action<Message>('send-template-message', { phone: '+14155550190', ...body });
  assert.equal(queued.status, 200, queued.text);
  server.app.services.outbox.wake();
  await server.app.services.outbox.idle();
  const request = graph.requests
    .filter((r) => r.method === 'POST' && r.path === `/${API_VERSION}/${cloud.phoneNumberId}/messages`)
    .at(-1);
  assert.equal(request?.headers.authorization, `Bearer ${cloud.accessToken}`);
  return { message: queued.body, request: request.body as { template: unknown; biz_opaque_callback_data: string } };
}

const envelope = { messaging_product: 'whatsapp', recipient_type: 'individual', to: '+14155550190', type: 'template' };

describe(`template parameters (${ENGINE})`, () => {
  test('templates sync › keeps named, header and button variables, copy-code and OTP buttons; carousel and limited-time offer are synced, not skipped', async () => {
    const { cloud, result, byName } = await syncedWorkspace();
    assert.deepEqual(result, { templates: 7, translations: 7, skipped: [] });

    const named = byName(namedTemplate.name);
    assert.deepEqual(
      [named.parameter_format, named.placeholders, named.header_placeholders, named.variables],
      [
        'NAMED',
        ['first_name', 'order_number'],
        ['order_number'],
        [
          { id: 'first_name', label: '{{first_name}}' },
          { id: 'order_number', label: '{{order_number}}' },
          { id: 'header_order_number', label: 'Header {{order_number}}' },
        ],
      ],
    );
    const coupon = byName(couponTemplate.name);
    assert.deepEqual(coupon.buttons, [
      { type: 'URL', text: 'Shop now', url: 'https://www.luckyshrub.com/shop?promo={{1}}' },
      { type: 'COPY_CODE', text: 'Copy offer code' },
    ]);
    assert.deepEqual(coupon.button_placeholders, [
      { index: 0, placeholder: '1' },
      { index: 1, placeholder: 'coupon_code' },
    ]);
    const otp = byName(authenticationTemplate.name);
    assert.deepEqual(otp.buttons, [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy Code' }]);
    assert.deepEqual(otp.variables, [{ id: '1', label: '{{1}}' }], 'the OTP button repeats the body’s code');
    const zeroTap = byName(zeroTapTemplate.name);
    assert.deepEqual(
      [zeroTap.add_security_recommendation, zeroTap.code_expiration_minutes, zeroTap.footer, zeroTap.buttons],
      [true, 5, 'This code expires in 5 minutes.', zeroTapTemplate.components[2]!.buttons],
    );
    assert.deepEqual([named.add_security_recommendation, named.code_expiration_minutes], [null, null]);
    assert.equal(byName(imageTemplate.name).header_content, 'https://scontent.whatsapp.net/v/t61.29466-34/launch.jpg');
    assert.deepEqual(byName(carouselTemplate.name).missing_capabilities, ['carousel']);
    const offer = byName(limitedTimeOfferTemplate.name);
    assert.deepEqual(offer.missing_capabilities, []);
    assert.deepEqual(
      offer.variables.map((v) => v.id),
      ['1', '2', 'offer_expiration_time_ms', 'button_0_coupon_code', 'button_1_1'],
    );
    assert.deepEqual(coupon.missing_capabilities, []);

    // The pick-list integrations build `variables` from: every part that takes a value.
    const choices = await cloud.ws.get<Choice[]>(`/v1/dropdowns/template-variables?template_id=${coupon.id}`);
    assert.equal(choices.status, 200, choices.text);
    assert.deepEqual(choices.body, [
      { id: '1', label: '{{1}}' },
      { id: '2', label: '{{2}}' },
      { id: 'header_1', label: 'Header {{1}}' },
      { id: 'button_0_1', label: 'Button "Shop now" {{1}}' },
      { id: 'button_1_coupon_code', label: 'Button "Copy offer code": coupon code' },
    ]);
  });

  test('n8n-style send › `variables` keyed by every pick-list id fills the text header, body, URL button and copy code', async () => {
    const { cloud, byName } = await syncedWorkspace();
    const template = byName(couponTemplate.name);
    // As the n8n node does: one field per pick-list id, sent as one `variables` object.
    const choices = await cloud.ws.get<Choice[]>(`/v1/dropdowns/template-variables?template_id=${template.id}`);
    const values: Record<string, string> = {
      '1': '25OFF',
      '2': '25%',
      header_1: 'Fall Sale',
      button_0_1: 'fall25',
      button_1_coupon_code: '25OFF',
    };
    const variables = Object.fromEntries(choices.body.map(({ id }) => [id, values[id]!]));
    const { message, request } = await sendAndDeliver(cloud, { template_id: template.id, variables });
    assert.equal(
      (message.content as { text: string }).text,
      'Shop now through November and use code 25OFF to get 25% off of all merchandise!',
    );
    // Meta's "Sending coupon code templates" and "URL buttons" send examples, with a text header parameter.
    assert.deepEqual(request, {
      ...envelope,
      template: {
        name: 'coupon_code_fall2023_25off',
        language: { code: 'en_US' },
        components: [
          { type: 'header', parameters: [{ type: 'text', text: 'Fall Sale' }] },
          {
            type: 'body',
            parameters: [
              { type: 'text', text: '25OFF' },
              { type: 'text', text: '25%' },
            ],
          },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'fall25' }] },
          {
            type: 'button',
            sub_type: 'copy_code',
            index: 1,
            parameters: [{ type: 'coupon_code', coupon_code: '25OFF' }],
          },
        ],
      },
      biz_opaque_callback_data: message.id,
    });

    // The older fields keep working: `button_variables` for the URL button.
    const older = await sendAndDeliver(cloud, {
      template_id: template.id,
      variables: { '1': '25OFF', '2': '25%', header_1: 'Fall Sale', button_1_coupon_code: '25OFF' },
      button_variables: ['fall25'],
    });
    assert.deepEqual(older.request.template, request.template);
  });

  test('send-template-message › named parameters, a one-time password, a limited-time offer and the template’s own image as Meta documents', async () => {
    const { cloud, byName } = await syncedWorkspace();
    const named = await sendAndDeliver(cloud, {
      template_id: byName(namedTemplate.name).id,
      variables: { first_name: 'Jessica', order_number: 'SKBUP2-4CPIG9', header_order_number: 'SKBUP2-4CPIG9' },
    });
    assert.equal(
      (named.message.content as { text: string }).text,
      'Thank you, Jessica! Your order number is SKBUP2-4CPIG9.',
    );
    // Meta's "Named parameters" send example: each parameter carries its parameter_name.
    assert.deepEqual(named.request.template, {
      name: 'order_confirmation',
      language: { code: 'en_US' },
      components: [
        { type: 'header', parameters: [{ type: 'text', parameter_name: 'order_number', text: 'SKBUP2-4CPIG9' }] },
        {
          type: 'body',
          parameters: [
            { type: 'text', parameter_name: 'first_name', text: 'Jessica' },
            { type: 'text', parameter_name: 'order_number', text: 'SKBUP2-4CPIG9' },
          ],
        },
      ],
    });

    // Meta's "Copy code authentication templates" send example: the code in the body and in the button.
    const otp = await sendAndDeliver(cloud, {
      template_id: byName(authenticationTemplate.name).id,
      variables: { '1': 'J$FpnYnP' },
    });
    assert.deepEqual(otp.request.template, {
      name: 'authentication_code_copy_code_button',
      language: { code: 'en_US' },
      components: [
        { type: 'body', parameters: [{ type: 'text', text: 'J$FpnYnP' }] },
        { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'J$FpnYnP' }] },
      ],
    });

    // A zero-tap button carries the code as a copy-code button does ("Zero-tap authentication templates").
    const zeroTap = await sendAndDeliver(cloud, {
      template_id: byName(zeroTapTemplate.name).id,
      variables: { '1': '872941' },
    });
    assert.deepEqual(zeroTap.request.template, {
      name: 'zero_tap_auth_template',
      language: { code: 'en_US' },
      components: [
        { type: 'body', parameters: [{ type: 'text', text: '872941' }] },
        { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '872941' }] },
      ],
    });

    // Meta's "Sending limited-time offer templates" example: header, body, the offer's expiry, copy code, URL.
    const offer = await sendAndDeliver(cloud, {
      template_id: byName(limitedTimeOfferTemplate.name).id,
      variables: {
        '1': 'Pablo',
        '2': 'CARIBE25',
        offer_expiration_time_ms: '1699400090000',
        button_0_coupon_code: 'CARIBE25',
        button_1_1: 'n3mtql',
      },
    });
    assert.deepEqual(offer.request.template, {
      name: 'limited_time_offer_caribbean_pkg_2023',
      language: { code: 'en_US' },
      components: [
        {
          type: 'header',
          parameters: [{ type: 'image', image: { link: 'https://scontent.whatsapp.net/v/t61.29466-34/caribe.jpg' } }],
        },
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Pablo' },
            { type: 'text', text: 'CARIBE25' },
          ],
        },
        {
          type: 'limited_time_offer',
          parameters: [{ type: 'limited_time_offer', limited_time_offer: { expiration_time_ms: 1699400090000 } }],
        },
        {
          type: 'button',
          sub_type: 'copy_code',
          index: 0,
          parameters: [{ type: 'coupon_code', coupon_code: 'CARIBE25' }],
        },
        { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'n3mtql' }] },
      ],
    });

    // Without header_media_url, a media header shows the template's own sample.
    const image = await sendAndDeliver(cloud, { template_id: byName(imageTemplate.name).id });
    assert.deepEqual(image.request.template, {
      name: 'product_launch',
      language: { code: 'en_US' },
      components: [
        {
          type: 'header',
          parameters: [{ type: 'image', image: { link: 'https://scontent.whatsapp.net/v/t61.29466-34/launch.jpg' } }],
        },
      ],
    });
  });

  test('send-template-message › too few, unknown, malformed or unsendable: a 4xx naming what the template needs, nothing queued', async () => {
    const { cloud, byName } = await syncedWorkspace();
    const coupon = byName(couponTemplate.name).id;
    const refused = async (body: object) => {
      const res = await cloud.ws.action<Mismatch>('send-template-message', { phone: '+14155550191', ...body });
      assert.ok(res.status === 422 || res.status === 400, res.text);
      return res.body;
    };
    const needed = ['1', '2', 'header_1', 'button_0_1', 'button_1_coupon_code'];

    const tooFew = await refused({ template_id: coupon, variables: { '1': '25OFF', '2': '25%' } });
    assert.deepEqual(
      [tooFew.code, tooFew.needed, tooFew.missing, tooFew.unknown],
      ['template_variables_mismatch', needed, ['header_1', 'button_0_1', 'button_1_coupon_code'], []],
    );
    const unknown = await refused({
      template_id: coupon,
      variables: { '1': 'a', '2': 'b', header_1: 'c', button_0_1: 'd', button_1_coupon_code: 'e', button_2_1: 'f' },
    });
    assert.deepEqual(
      [unknown.code, unknown.missing, unknown.unknown],
      ['template_variables_mismatch', [], ['button_2_1']],
    );
    const asArray = await refused({ template_id: coupon, variables: ['25OFF', '25%'] });
    assert.deepEqual(asArray.missing, ['header_1', 'button_0_1', 'button_1_coupon_code']);
    // An array shorter than the body's placeholders gives its first ones: only the rest are missing.
    const shortArray = await refused({ template_id: coupon, variables: ['25OFF'] });
    assert.deepEqual(
      [shortArray.code, shortArray.missing],
      ['template_variables_mismatch', ['2', 'header_1', 'button_0_1', 'button_1_coupon_code']],
    );

    const carousel = await refused({ template_id: byName(carouselTemplate.name).id, variables: ['15OFF', '15%'] });
    assert.deepEqual(
      [carousel.code, (carousel as unknown as { missing_capabilities: string[] }).missing_capabilities],
      ['template_not_sendable', ['carousel']],
    );
    const offer = await refused({
      template_id: byName(limitedTimeOfferTemplate.name).id,
      variables: { '1': 'a', '2': 'b', button_0_coupon_code: 'C', button_1_1: 'd', offer_expiration_time_ms: 'soon' },
    });
    assert.equal(offer.code, 'validation_failed');

    // A media header whose content is no URL (an upload handle) still needs header_media_url.
    const handle = await createTemplate(server.app.services, cloud.ws.workspaceId, {
      translations: [{ language: 'en', status: 'APPROVED', body: 'Hi', header_type: 'VIDEO', header_content: '4::aW' }],
    });
    assert.equal((await refused({ template_id: handle.id })).code, 'header_media_required');

    server.app.services.outbox.wake();
    await server.app.services.outbox.idle();
    const toContact = graph.requests.filter((r) => (r.body as { to?: string } | null)?.to === '+14155550191');
    assert.deepEqual(toContact, [], 'refused sends never reach Meta');
  });

  test("create-template › a template from Meta's Template Library: Meta gets the library name and inputs, Parley keeps Meta's content, syncs it and sends it", async () => {
    const cloud = await cloudWorkspace();
    const library = {
      name: 'order_on_its_way',
      category: 'UTILITY',
      library_template_name: deliveryUpdateLibraryTemplate.name,
      language: 'en_US',
      // Meta's "Template Library": a URL button takes the business's base URL and a sample of it.
      library_template_button_inputs: [
        {
          type: 'URL',
          url: {
            base_url: 'https://www.luckyshrub.com/track/{{1}}',
            url_suffix_example: 'https://www.luckyshrub.com/track/A123',
          },
        },
      ],
    };
    const problems = async (body: object) => {
      const answer = await cloud.ws.action<{ errors: { field: string }[] }>('create-template', body);
      assert.equal(answer.status, 400, answer.text);
      return answer.body.errors.map((e) => e.field);
    };
    const translations = [{ language: 'en_US', body: 'Hi' }];
    assert.deepEqual(await problems({ name: 'no_content', category: 'UTILITY' }), ['translations']);
    assert.deepEqual(await problems({ ...library, language: undefined, translations }), ['translations', 'language']);

    const created = await cloud.ws.action<Template>('create-template', library);
    assert.equal(created.status, 200, created.text);
    const [sent] = graph.requests.filter(
      (r) => r.method === 'POST' && r.path === `/${API_VERSION}/${cloud.wabaId}/message_templates`,
    );
    const { name, category, library_template_name, language, library_template_button_inputs } = library;
    assert.deepEqual(sent?.body, { name, category, library_template_name, language, library_template_button_inputs });
    assert.deepEqual(
      [created.body.status, created.body.body, created.body.library_template_name, created.body.buttons],
      [
        'APPROVED',
        deliveryUpdateLibraryTemplate.body,
        'delivery_update_1',
        [{ type: 'URL', text: 'Track order', url: 'https://www.luckyshrub.com/track/{{1}}' }],
      ],
    );
    assert.match(created.body.meta_template_id ?? '', /^\d+$/);

    const synced = await cliJson<SyncResult>(server, ...['templates', 'sync', '--workspace', cloud.ws.workspaceId]);
    assert.deepEqual(synced.skipped, []);
    const fetched = await cloud.ws.action<Template>('get-template', { template_id: created.body.id });
    assert.equal(fetched.body.library_template_name, 'delivery_update_1', 'the sync keeps the library name');

    const order = await sendAndDeliver(cloud, {
      template_id: created.body.id,
      variables: { '1': '#A123', button_0_1: 'A123' },
    });
    assert.deepEqual(order.request.template, {
      name: 'order_on_its_way',
      language: { code: 'en_US' },
      components: [
        { type: 'body', parameters: [{ type: 'text', text: '#A123' }] },
        { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'A123' }] },
      ],
    });
  });
});
