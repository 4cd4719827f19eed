import { Type } from '@sinclair/typebox';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import { DownloadedMediaSchema, DownloadMediaBody, type MediaService } from './media.js';

/**
 * download-media: a received image, audio, video, document or sticker, fetched into DATA_DIR. It
 * writes a file and calls Meta with the workspace's token, so it needs a full-access token.
 */
export function registerMediaRoutes(app: Api, media: MediaService): void {
  app.addSchema(DownloadedMediaSchema);

  app.post(
    '/api/v1/actions/download-media',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'downloadMedia',
        tags: ['Messages'],
        summary: 'Fetch the media of a received message into DATA_DIR',
        description:
          "The first call fetches the file from WhatsApp Cloud, checks the SHA-256 Meta reports and stores it at `DATA_DIR/media/<workspace id>/<media id>`; later calls answer from that file without calling Meta. It needs a full-access token (a read-only token is a 403 `insufficient_scope`). A message without media is a 422 `message_has_no_media`; a workspace on the simulator, a media id Meta no longer serves or a file that does not match Meta's SHA-256 is a 409 (nothing is stored).",
        body: DownloadMediaBody,
        response: { 200: Type.Ref(DownloadedMediaSchema), ...actionErrors(404, 409) },
      },
    },
    async (request) => media.download(principalOf(request), request.body.message_id),
  );
}
