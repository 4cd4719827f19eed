import { useEffect, useState } from 'preact/hooks';
import { action } from '../../api';
import { ErrorNote, TextField, formatTime, useAsync, useSubmit } from '../../ui';
import type { Thread } from './types';

interface Template {
  id: string;
  name: string;
  language: string;
  status: string;
  body: string;
  header_type: string | null;
  placeholders: string[];
  /** Every variable a send fills (body, header, buttons), keyed as send-template-message's `variables`. */
  variables: { id: string; label: string }[];
}

const MEDIA_HEADERS = ['IMAGE', 'VIDEO', 'DOCUMENT'];

/**
 * Replying: free text inside the 24-hour window; outside it the box is disabled with the reason, and
 * an approved template can be sent instead (WhatsApp's rule, which the API enforces too).
 */
export function ReplyBox({ thread, onSent }: { thread: Thread; onSent: () => void }) {
  const [text, setText] = useState('');
  const [templateOpen, setTemplateOpen] = useState(false);
  const { window: win, contact } = thread;
  useEffect(() => setTemplateOpen(false), [contact.id]);
  const send = useSubmit(async () => {
    await action('send-text-message', { contact_id: contact.id, message: text });
    setText('');
    onSent();
  });
  const closed = !win.open;
  const reason = !win.last_inbound_at
    ? 'This contact has never written to you, so no 24-hour window is open. WhatsApp only allows template messages until they write.'
    : `The 24-hour window closed ${formatTime(win.closes_at)} (24 hours after their last message). WhatsApp only allows template messages until they write again.`;

  return (
    <section class="reply" aria-label="Write a reply">
      <form onSubmit={send.onSubmit} class="reply-form">
        <div class="field">
          <label for="reply-text">Reply</label>
          <textarea
            id="reply-text"
            value={text}
            maxLength={4096}
            disabled={closed}
            aria-describedby={closed ? 'reply-closed' : 'reply-window'}
            onInput={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void send.run();
            }}
          />
          {closed ? (
            <p id="reply-closed" class="warning">
              {reason}
            </p>
          ) : (
            <small id="reply-window" class="hint">
              You can reply freely until {formatTime(win.closes_at)}. Ctrl+Enter sends.
              {contact.opted_out &&
                ' This contact opted out of marketing: replies are fine, marketing templates are not.'}
            </small>
          )}
        </div>
        <div class="reply-actions">
          {!closed && (
            <button type="submit" class="primary" disabled={send.busy || !text.trim()}>
              Send
            </button>
          )}
          <button type="button" aria-expanded={templateOpen} onClick={() => setTemplateOpen(!templateOpen)}>
            {closed ? 'Send a template instead' : 'Send a template'}
          </button>
        </div>
        <ErrorNote error={send.error} />
      </form>
      {templateOpen && (
        <TemplateForm
          contactId={contact.id}
          onSent={() => {
            setTemplateOpen(false);
            onSent();
          }}
        />
      )}
    </section>
  );
}

/** Picks an approved template, asks for each of its variables and sends it (the inbox and the contact page). */
export function TemplateForm({ contactId, onSent }: { contactId: string; onSent: () => void }) {
  const templates = useAsync(() => action<Template[]>('list-templates', { status: 'APPROVED' }), []);
  const approved = (templates.data ?? []).filter((t) => t.status === 'APPROVED');
  const [templateId, setTemplateId] = useState('');
  const [variables, setVariables] = useState<Record<string, string>>({});
  const [headerUrl, setHeaderUrl] = useState('');
  const template = approved.find((t) => t.id === templateId);
  const preview = template?.placeholders.reduce(
    (body, n) => body.replace(new RegExp(`\\{\\{\\s*0*${n}\\s*\\}\\}`, 'g'), variables[n] || `{{${n}}}`),
    template.body,
  );
  const send = useSubmit(async () => {
    if (!template) return;
    await action('send-template-message', {
      contact_id: contactId,
      template_id: template.id,
      language: template.language,
      // Keyed by the ids get-template lists: body, text header and button variables alike.
      variables: Object.fromEntries(template.variables.map((v) => [v.id, variables[v.id] ?? ''])),
      ...(template.header_type && MEDIA_HEADERS.includes(template.header_type) && { header_media_url: headerUrl }),
    });
    onSent();
  });

  return (
    <form class="template-form" onSubmit={send.onSubmit} aria-label="Send a template">
      <ErrorNote error={templates.error} />
      <div class="field">
        <label for="reply-template">Template</label>
        <select
          id="reply-template"
          value={templateId}
          required
          onChange={(e) => {
            setTemplateId(e.currentTarget.value);
            setVariables({});
          }}
        >
          <option value="">{templates.loading ? 'Loading…' : 'Choose an approved template'}</option>
          {approved.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name} ({t.language})
            </option>
          ))}
        </select>
        {templates.data && approved.length === 0 && (
          <small class="hint">No approved templates yet: add one under Templates.</small>
        )}
      </div>
      {template?.variables.map((v) => (
        <TextField
          key={v.id}
          label={`Variable ${v.label}`}
          required
          maxLength={1024}
          value={variables[v.id] ?? ''}
          onValue={(value) => setVariables({ ...variables, [v.id]: value })}
        />
      ))}
      {template?.header_type && MEDIA_HEADERS.includes(template.header_type) && (
        <TextField
          label={`Header ${template.header_type.toLowerCase()} URL`}
          type="url"
          required
          value={headerUrl}
          onValue={setHeaderUrl}
          hint="An https address of the file"
        />
      )}
      {preview && (
        <div class="template-preview">
          <span class="muted">Preview</span>
          <p>{preview}</p>
        </div>
      )}
      <ErrorNote error={send.error} />
      <button type="submit" class="primary" disabled={send.busy || !template}>
        Send template
      </button>
    </form>
  );
}
