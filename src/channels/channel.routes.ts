import { Type } from '@sinclair/typebox';
import { can, requirePermission } from '../accounts/roles.js';
import type { Config } from '../config.js';
import { sessionUserOf, type Api } from '../http/types.js';
import { recentMessages } from '../messages/recent-messages.js';
import type { Deps } from '../shared/context.js';
import { errors } from '../shared/errors.js';
import type { ChannelService } from './channel.service.js';
import { Uuid } from '../http/responses.js';

const hide = true;
const Digits = Type.String({ maxLength: 40 });

const ChannelBody = Type.Object({
  provider: Type.Union([Type.Literal('simulator'), Type.Literal('whatsapp-cloud')]),
  phone_number_id: Type.Optional(Digits),
  waba_id: Type.Optional(Digits),
  /** Blank keeps the token already saved (it is never shown, so the form cannot send it back). */
  access_token: Type.Optional(Type.String({ maxLength: 4096 })),
  messages_per_second: Type.Optional(Type.Integer()),
});

/**
 * Settings → Channel and the Simulator's conversation view, for the dashboard (session only): the
 * same channel rules as `parley channel set`, and where Meta must send its webhooks.
 */
export function registerChannelDashboardRoutes(
  app: Api,
  services: { deps: Deps; channels: ChannelService },
  config: Config,
): void {
  const { channels, deps } = services;

  app.get('/api/dashboard/channel', { config: { access: 'session' }, schema: { hide } }, async (request) => {
    const user = sessionUserOf(request);
    return {
      channel: await channels.get(user),
      webhook_url: `${config.publicBaseUrl}/webhooks/whatsapp`,
      verify_token_set: config.whatsappVerifyToken !== null,
      app_secret_set: config.whatsappAppSecret !== null,
      // The handshake secret is for whoever connects the number in Meta: owners only.
      verify_token: can(user.role, 'manage_channel') ? config.whatsappVerifyToken : null,
    };
  });

  app.put(
    '/api/dashboard/channel',
    { config: { access: 'session' }, schema: { hide, body: ChannelBody } },
    async (request) => {
      const user = sessionUserOf(request);
      requirePermission(user, 'manage_channel');
      const body = request.body;
      if (body.provider === 'simulator') return channels.useSimulator(user);
      const accessToken = body.access_token?.trim() || (await channels.savedAccessToken(user.workspaceId)) || '';
      const missing = [
        ['phone_number_id', body.phone_number_id?.trim()],
        ['waba_id', body.waba_id?.trim()],
        ['access_token', accessToken],
      ].find(([, value]) => !value);
      if (missing) throw errors.validation(missing[0]!, 'is required for WhatsApp Cloud');
      return channels.useWhatsappCloud(user, {
        phoneNumberId: body.phone_number_id!,
        wabaId: body.waba_id!,
        accessToken,
        ...(body.messages_per_second !== undefined && { messagesPerSecond: body.messages_per_second }),
      });
    },
  );

  app.get(
    '/api/dashboard/simulator/messages',
    {
      config: { access: 'session' },
      schema: { hide, querystring: Type.Object({ contact_id: Uuid() }) },
    },
    async (request) => recentMessages(deps.db, sessionUserOf(request).workspaceId, request.query.contact_id),
  );
}
