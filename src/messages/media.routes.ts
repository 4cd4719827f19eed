import { Type } from '@sinclair/typebox';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import { DownloadedMediaSchema, DownloadMediaBody, type MediaService } from './media.js';
import { UPLOAD_BODY_LIMIT, UploadedMediaSchema, UploadMediaBody, type MediaUploadService } from './media-upload.js';

/**
 * download-media: a received image, audio, video, document or sticker, as the media store keeps it.
 * It may fetch the file from Meta with the workspace's token, so it needs a full-access token.
 */
export function registerMediaRoutes(app: Api, media: MediaService, uploads: MediaUploadService): void {
  app.addSchema(DownloadedMediaSchema);
  app.addSchema(UploadedMediaSchema);

  app.post(
    '/api/v1/actions/download-media',
    {
      config: { access: 'write', permission: 'conversations' },
      schema: {
        operationId: 'downloadMedia',
        tags: ['Messages'],
        summary: 'Where the media of a received message is kept',
        description:
          "Parley downloads every received file in the background as it arrives (the message's `media_storage` says how far it got) and keeps it in the media store: the filesystem under `DATA_DIR/media/<workspace id>/<media id>` or an S3-compatible bucket (MEDIA_STORAGE). A stored file is answered without calling Meta, also after Meta has deleted it (30 days); a file not stored yet is fetched from WhatsApp Cloud now and checked against the SHA-256 Meta reports. A file deleted after the workspace's media retention is a 409. It needs a full-access token (a read-only token is a 403 `insufficient_scope`). A message without media is a 422 `message_has_no_media`; a workspace on the simulator, a media id Meta no longer serves or a file that does not match Meta's SHA-256 is a 409 (nothing is stored).",
        body: DownloadMediaBody,
        response: { 200: Type.Ref(DownloadedMediaSchema), ...actionErrors(404, 409) },
      },
    },
    async (request) => media.download(principalOf(request), request.body.message_id),
  );

  app.post(
    '/api/v1/actions/upload-media',
    {
      config: { access: 'write' },
      bodyLimit: UPLOAD_BODY_LIMIT,
      schema: {
        operationId: 'uploadMedia',
        tags: ['Messages'],
        summary: 'Upload a file for media messages (base64)',
        description:
          "The file (`data`, base64) is checked against WhatsApp's limits for its kind (`type`, default: the kind that takes `mime_type`): image jpeg/png ≤ 5 MB, video mp4/3gpp ≤ 16 MB, audio aac/amr/mpeg/mp4/ogg ≤ 16 MB, document (pdf, text, Office) ≤ 100 MB, sticker webp ≤ 100 KB (animated ≤ 500 KB); outside them the answer is 422 `media_not_accepted` and nothing is uploaded. The bytes must be of the declared `mime_type` (read from the file's own signature; text must be UTF-8 without NUL bytes; a PNG must end at its IEND chunk): otherwise the answer is 422 `media_type_mismatch`, naming the declared and the detected type, and nothing is uploaded or stored. It is then uploaded to the workspace's channel (WhatsApp Cloud's media endpoint; the simulator gives its own ids) and kept in the media store (as received files are), so the thread shows what was sent. Send it with send-media-message and the answered `media_id`. Meta refusing the upload is a 409. The request body may be up to about 134 MB.",
        body: UploadMediaBody,
        response: { 200: Type.Ref(UploadedMediaSchema), ...actionErrors(409) },
      },
    },
    async (request) => uploads.upload(principalOf(request), request.body),
  );
}
