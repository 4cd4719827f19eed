import { useId, useRef, useState } from 'preact/hooks';
import { MEDIA_LIMITS, mediaTypeTaking } from '../../../../src/content/media-limits';
import { formProblem } from '../../api';
import { action } from '../../api/client';
import { formatFileSize } from '../../i18n/format';
import { t } from '../../i18n/i18n';

/**
 * Attaching a file to a message, the same in a contact's thread and a WhatsApp group: choosing it,
 * checking it against WhatsApp's limits, uploading it, and the media message's fields it becomes.
 */

/** The media kinds a caption goes with (WhatsApp shows none under audio or stickers). */
const CAPTIONED = ['image', 'video', 'document'];

/** The request fields a file's problems name (upload-media's bytes and type): shown beside the attach control. */
const FILE_FIELDS = ['data', 'mime_type'] as const;

/** The labels of a file's problems, by the field they name: the chosen file is shown as "File: name". */
export const fileLabels = (): Record<(typeof FILE_FIELDS)[number], string> => ({
  data: t('inbox:attach.file'),
  mime_type: t('inbox:attach.file'),
});

/** The problem of the chosen file, from a form's field errors (`fieldErrors(…, { ...fileLabels() })`). */
export const fileError = (errors: { field: (name: string) => string | undefined }) =>
  FILE_FIELDS.map((field) => errors.field(field)).find(Boolean);

/** The file chosen for the next message; `onChange` hears of every choice (its old problem goes). */
export function useAttachment(onChange: (...fields: string[]) => void) {
  const [file, setFile] = useState<File | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const choose = (chosen: File | null) => {
    setFile(chosen);
    // Cleared, the input fires again when the same file is chosen once more.
    if (!chosen && input.current) input.current.value = '';
    onChange(...FILE_FIELDS);
  };
  return { file, input, choose, clear: () => choose(null) };
}

export type Attachment = ReturnType<typeof useAttachment>;

/** The attach button, the chosen file with a way to remove it, and the file's problem beside them. */
export function AttachFile({ attachment, error }: { attachment: Attachment; error: string | undefined }) {
  const id = useId();
  const { file, input, choose, clear } = attachment;
  return (
    <div class="reply-attachment">
      <label class="button reply-attach">
        <span aria-hidden="true">📎</span> {t('inbox:reply.attach')}
        <input
          ref={input}
          type="file"
          class="visually-hidden"
          aria-describedby={error ? `${id}-error` : undefined}
          aria-invalid={error ? true : undefined}
          onChange={(e) => choose(e.currentTarget.files?.[0] ?? null)}
        />
      </label>
      {file && (
        <span class="reply-file">
          {t('inbox:attach.chosen', { name: file.name })}{' '}
          <button type="button" class="link" onClick={clear}>
            {t('inbox:reply.remove')}
          </button>
        </span>
      )}
      {error && (
        <small id={`${id}-error`} class="error">
          {error}
        </small>
      )}
    </div>
  );
}

/**
 * A media message's fields for the file, with the text as its caption where WhatsApp shows one:
 * checked against WhatsApp's limits here (before a large file is read and sent), then uploaded.
 */
export async function mediaMessage(file: File, caption: string) {
  const mimeType = file.type || 'application/octet-stream';
  checkFile(file, mimeType);
  const upload = await action('upload-media', { data: await base64Of(file), mime_type: mimeType, filename: file.name });
  return {
    type: upload.type,
    media_id: upload.media_id,
    ...(caption.trim() && CAPTIONED.includes(upload.type) && { caption }),
    ...(upload.type === 'document' && { filename: file.name }),
  };
}

/** Refuses a file WhatsApp would refuse (its type, its size for its kind), in words, as upload-media would. */
function checkFile(file: File, mimeType: string): void {
  const kind = mediaTypeTaking(mimeType);
  if (!kind) throw formProblem('data', t('inbox:attach.notTaken', { name: file.name, type: mimeType }));
  const { maxBytes } = MEDIA_LIMITS[kind];
  if (file.size > maxBytes) {
    const sizes = { name: file.name, size: formatFileSize(file.size), max: formatFileSize(maxBytes) };
    throw formProblem('data', t(`inbox:attach.tooLarge.${kind}`, sizes));
  }
}

/** A chosen file's bytes as base64, as upload-media takes them. */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve((reader.result as string).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(new Error(t('inbox:reply.unreadableFile', { name: file.name })));
    reader.readAsDataURL(file);
  });
}
