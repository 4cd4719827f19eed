import { Type } from '@sinclair/typebox';
import { can } from '../access/roles.js';
import type { Config } from '../config.js';
import { principalOf, sessionUserOf, type Api } from '../http/types.js';
import { actionErrors } from '../http/responses.js';
import { looksPubliclyReachable } from '../shared/public-address.js';
import type { ChannelService } from './channel.service.js';
import {
  AddChannelBody,
  ChannelFields,
  ChannelList,
  ChannelSchema,
  newChannelOf,
  RemoveChannelBody,
} from './channel.schema.js';

const tags = ['Channels'];
const channel = Type.Ref(ChannelSchema);

/** Settings → Channel's form: blank `access_token` keeps the saved one (it is never shown, so the form cannot send it back). */
const ChannelBody = Type.Object(ChannelFields);

/** Settings → Channel: the workspace's default channel and what Meta's webhook set-up needs. */
const ChannelSettings = Type.Object({
  channel,
  webhook_url: Type.String({ description: 'Where Meta must send its webhooks' }),
  webhook_url_public: Type.Boolean({ description: 'Whether that address looks reachable from the internet' }),
  verify_token_set: Type.Boolean(),
  app_secret_set: Type.Boolean(),
  verify_token: Type.Union([Type.String(), Type.Null()], { description: 'The handshake secret; owners only' }),
});

/** list-channels, add-channel, remove-channel: a workspace's numbers. */
export function registerChannelRoutes(app: Api, channels: ChannelService): void {
  app.addSchema(ChannelSchema);

  app.post(
    '/api/v1/actions/list-channels',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'listChannels',
        tags,
        summary: "The workspace's numbers (channels), the default first, with Meta's quality rating and messaging tier",
        body: Type.Object({}),
        response: { 200: ChannelList, ...actionErrors() },
      },
    },
    async (request) => ({ channels: await channels.list(principalOf(request)) }),
  );

  app.post(
    '/api/v1/actions/add-channel',
    {
      config: { access: 'write', permission: 'manage_channel' },
      schema: {
        operationId: 'addChannel',
        tags,
        summary: 'Connect another WhatsApp Cloud number (or a simulated one) to the workspace',
        description:
          'Meta is asked first, with the given token, whether the number is one of the WABA’s; nothing is saved otherwise. A number connected to another workspace is refused (409).',
        body: AddChannelBody,
        response: { 200: channel, ...actionErrors() },
      },
    },
    async (request) => channels.add(principalOf(request), newChannelOf(request.body), request.body.default ?? false),
  );

  app.post(
    '/api/v1/actions/remove-channel',
    {
      config: { access: 'write', permission: 'manage_channel' },
      schema: {
        operationId: 'removeChannel',
        tags,
        summary: 'Disconnect a number; its messages stay, those still queued on it fail',
        description:
          'When the default is removed, the oldest remaining channel becomes the default; without any channel the workspace uses the built-in simulator.',
        body: RemoveChannelBody,
        response: { 200: channel, ...actionErrors(404) },
      },
    },
    async (request) => channels.remove(principalOf(request), request.body.channel_id),
  );
}

/**
 * Settings → Channel, for the dashboard (session only): the same channel rules as `parley channel set`,
 * and where Meta must send its webhooks.
 */
export function registerChannelDashboardRoutes(app: Api, services: { channels: ChannelService }, config: Config): void {
  const { channels } = services;

  app.get(
    '/api/dashboard/channel',
    { config: { access: 'session' }, schema: { response: { 200: ChannelSettings } } },
    async (request) => {
      const user = sessionUserOf(request);
      return {
        channel: await channels.get(user),
        webhook_url: `${config.publicBaseUrl}/webhooks/whatsapp`,
        webhook_url_public: looksPubliclyReachable(new URL(config.publicBaseUrl)),
        verify_token_set: config.whatsappVerifyToken !== null,
        app_secret_set: config.whatsappAppSecret !== null,
        // The handshake secret is for whoever connects the number in Meta: owners only.
        verify_token: can(user.role, 'manage_channel') ? config.whatsappVerifyToken : null,
      };
    },
  );

  app.put(
    '/api/dashboard/channel',
    {
      config: { access: 'session', permission: 'manage_channel' },
      schema: { body: ChannelBody, response: { 200: channel } },
    },
    async (request) => {
      const user = sessionUserOf(request);
      const settings = newChannelOf(request.body, (await channels.savedAccessToken(user.workspaceId)) ?? '');
      if (settings.provider === 'simulator') return channels.useSimulator(user);
      return channels.useWhatsappCloud(user, settings);
    },
  );
}
