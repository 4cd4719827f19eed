import type { ChannelTemplate } from '../channels/provider.js';

/**
 * Templates as `GET /{waba-id}/message_templates` lists them, one of each kind Meta offers. Each
 * follows the creation example of Meta's guide for its kind (the list answers with the components as
 * created, upper-cased, plus `id`, `status` and, for named parameters, `parameter_format`).
 */

/** "Named parameters" (Cloud API, Templates > Template components): a NAMED body and header. */
export const namedTemplate: ChannelTemplate = {
  id: '1189224342350801',
  name: 'order_confirmation',
  language: 'en_US',
  status: 'APPROVED',
  category: 'UTILITY',
  parameter_format: 'NAMED',
  components: [
    {
      type: 'HEADER',
      format: 'TEXT',
      text: 'Order {{order_number}}',
      example: { header_text_named_params: [{ param_name: 'order_number', example: '860198-230332' }] },
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
  ],
};

/**
 * "Coupon code templates" (a text header with a variable, a copy-code button) with the URL button of
 * "URL buttons" (`{{1}}` suffix and its example): every part that takes a variable.
 */
export const couponTemplate: ChannelTemplate = {
  id: '2189224342350802',
  name: 'coupon_code_fall2023_25off',
  language: 'en_US',
  status: 'APPROVED',
  category: 'MARKETING',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Our {{1}} is on!', example: { header_text: ['Fall Sale'] } },
    {
      type: 'BODY',
      text: 'Shop now through November and use code {{1}} to get {{2}} off of all merchandise!',
      example: { body_text: [['25OFF', '25%']] },
    },
    {
      type: 'BUTTONS',
      buttons: [
        {
          type: 'URL',
          text: 'Shop now',
          url: 'https://www.luckyshrub.com/shop?promo={{1}}',
          example: ['https://www.luckyshrub.com/shop?promo=fall25'],
        },
        { type: 'COPY_CODE', text: 'Copy offer code', example: '250FF' },
      ],
    },
  ],
};

/** "Copy code authentication templates": Meta's fixed body with the code as {{1}}, an OTP button. */
export const authenticationTemplate: ChannelTemplate = {
  id: '3189224342350803',
  name: 'authentication_code_copy_code_button',
  language: 'en_US',
  status: 'APPROVED',
  category: 'AUTHENTICATION',
  components: [
    {
      type: 'BODY',
      text: '*{{1}}* is your verification code. For your security, do not share this code.',
      add_security_recommendation: true,
    },
    { type: 'FOOTER', text: 'This code expires in 5 minutes.', code_expiration_minutes: 5 },
    { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy Code' }] },
  ],
};

/**
 * "Zero-tap authentication templates": Meta's body with the security sentence, the expiry footer, and the
 * OTP button naming the Android app the code goes to and the accepted zero-tap terms.
 */
export const zeroTapTemplate: ChannelTemplate = {
  id: '3289224342350807',
  name: 'zero_tap_auth_template',
  language: 'en_US',
  status: 'APPROVED',
  category: 'AUTHENTICATION',
  components: [
    {
      type: 'BODY',
      text: '*{{1}}* is your verification code. For your security, do not share this code.',
      add_security_recommendation: true,
    },
    { type: 'FOOTER', text: 'This code expires in 5 minutes.', code_expiration_minutes: 5 },
    {
      type: 'BUTTONS',
      buttons: [
        {
          type: 'OTP',
          otp_type: 'ZERO_TAP',
          text: 'Copy Code',
          zero_tap_terms_accepted: true,
          supported_apps: [{ package_name: 'com.example.luckyshrub', signature_hash: 'K8a/AINcGX7' }],
        },
      ],
    },
  ],
};

/** "Media templates": an image header whose sample (`header_handle`) Parley keeps as header_content. */
export const imageTemplate: ChannelTemplate = {
  id: '4189224342350804',
  name: 'product_launch',
  language: 'en_US',
  status: 'APPROVED',
  category: 'MARKETING',
  components: [
    {
      type: 'HEADER',
      format: 'IMAGE',
      example: { header_handle: ['https://scontent.whatsapp.net/v/t61.29466-34/launch.jpg'] },
    },
    { type: 'BODY', text: 'Our new blend is here.' },
  ],
};

/** "Media card carousel templates": a body, then a CAROUSEL of cards. */
export const carouselTemplate: ChannelTemplate = {
  id: '5189224342350805',
  name: 'summer_carousel_promo_2023',
  language: 'en_US',
  status: 'APPROVED',
  category: 'MARKETING',
  components: [
    {
      type: 'BODY',
      text: "Summer is here, and we've got the freshest produce around! Use code {{1}} to get {{2}} off your next order.",
      example: { body_text: [['15OFF', '15%']] },
    },
    {
      type: 'CAROUSEL',
      cards: [
        {
          components: [
            { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::an...'] } },
            { type: 'BODY', text: 'Rare lemons for unique cocktails.' },
            { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Send more like this' }] },
          ],
        },
      ],
    },
  ],
} as ChannelTemplate;

/**
 * "Limited-time offer templates" (its creation example): an image header, the LIMITED_TIME_OFFER
 * component with an expiry, a body, then the copy-code button first and a URL button.
 */
export const limitedTimeOfferTemplate: ChannelTemplate = {
  id: '6189224342350806',
  name: 'limited_time_offer_caribbean_pkg_2023',
  language: 'en_US',
  status: 'APPROVED',
  category: 'MARKETING',
  components: [
    {
      type: 'HEADER',
      format: 'IMAGE',
      example: { header_handle: ['https://scontent.whatsapp.net/v/t61.29466-34/caribe.jpg'] },
    },
    { type: 'LIMITED_TIME_OFFER', limited_time_offer: { text: 'Expiring offer!', has_expiration: true } },
    {
      type: 'BODY',
      text: 'Good news, {{1}}! Use code {{2}} to get 25% off all Caribbean Destination packages!',
      example: { body_text: [['Pablo', 'CARIBE25']] },
    },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'COPY_CODE', text: 'Copy offer code', example: 'CARIBE25' },
        {
          type: 'URL',
          text: 'Book now!',
          url: 'https://awesomedestinations.com/offers?code={{1}}',
          example: ['https://awesomedestinations.com/offers?ref=n3mtql'],
        },
      ],
    },
  ],
} as ChannelTemplate;

export const everyKind = [
  namedTemplate,
  couponTemplate,
  authenticationTemplate,
  zeroTapTemplate,
  imageTemplate,
  carouselTemplate,
  limitedTimeOfferTemplate,
];
