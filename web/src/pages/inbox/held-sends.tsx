import { useState } from 'preact/hooks';
import { dashboard, type DashboardAnswer } from '../../api/client';
import { t } from '../../i18n/i18n';
import { formatDateTime } from '../../i18n/format';
import { ErrorNote, useAsync, useSubmit } from '../../ui';
import { senderLabel } from './bubbles';
import { useLiveReload } from './events';
import { useThreadScroll } from './thread-scroll';
import { textIn } from './words';

type PendingSend = DashboardAnswer<'/api/dashboard/conversations/{contactId}/held-sends'>[number];

/**
 * The sends an agent's token in approval mode made to this contact, waiting for a person (decision
 * 0160): each with the agent's reasoning, to approve as it is, edit then approve (a text), or reject.
 * Live: another person's decision, or an expiry, takes it away.
 */
export function HeldSends({ contactId, onDecided }: { contactId: string; onDecided: () => void }) {
  const held = useAsync(
    () => dashboard.get('/api/dashboard/conversations/{contactId}/held-sends', { path: { contactId } }),
    [contactId],
  );
  useLiveReload(held.reload, (event) => event.type === 'approval' && event.contact_id === contactId);
  const sends = held.data ?? [];
  // They come after the messages, above the reply box: kept in view as the thread's newest entries are.
  useThreadScroll(
    `held ${contactId}`,
    sends.map((send) => send.id),
  );
  if (sends.length === 0) return <ErrorNote error={held.error} />;
  const decided = () => {
    held.reload();
    onDecided();
  };
  return (
    <section class="held-sends" aria-labelledby="held-sends-title">
      <h2 id="held-sends-title">{t('inbox:held.title', { count: sends.length })}</h2>
      <ul>
        {sends.map((send) => (
          <HeldSendCard key={send.id} send={send} onDecided={decided} />
        ))}
      </ul>
    </section>
  );
}

/** One held send: who proposed it and why, what it says, and the three decisions. */
function HeldSendCard({ send, onDecided }: { send: PendingSend; onDecided: () => void }) {
  const [mode, setMode] = useState<'view' | 'edit' | 'reject'>('view');
  const [text, setText] = useState(typeof send.content.body === 'string' ? send.content.body : '');
  const [note, setNote] = useState('');
  const path = { id: send.id };
  const approve = useSubmit(async () => {
    const body = mode === 'edit' ? { message: text } : {};
    await dashboard.post('/api/dashboard/held-sends/{id}/approve', { path, body });
    onDecided();
  });
  const reject = useSubmit(async () => {
    await dashboard.post('/api/dashboard/held-sends/{id}/reject', { path, body: note.trim() ? { note } : {} });
    onDecided();
  });
  const titleId = `held-${send.id}`;
  const busy = approve.busy || reject.busy;
  return (
    <li class="held-send" aria-labelledby={titleId} data-held-send={send.id}>
      <p id={titleId} class="held-send-from">
        {t('inbox:held.proposedBy', { agent: send.agent ? senderLabel(send.agent) : t('inbox:message.sender.api') })}
      </p>
      {send.reasoning && (
        <p class="held-send-reasoning" dir="auto">
          <b>{t('inbox:held.why')}</b> {send.reasoning}
        </p>
      )}
      {mode === 'edit' ? (
        <div class="field">
          <label for={`${titleId}-text`}>{t('inbox:held.editLabel')}</label>
          <textarea
            id={`${titleId}-text`}
            dir="auto"
            rows={4}
            maxLength={4096}
            value={text}
            onInput={(e) => {
              setText(e.currentTarget.value);
              approve.edited('message');
            }}
          />
        </div>
      ) : (
        <blockquote class="held-send-content" dir="auto">
          {textIn(send)}
        </blockquote>
      )}
      <p class="held-send-expires muted">{t('inbox:held.expires', { when: formatDateTime(send.expires_at) })}</p>
      {mode === 'reject' && (
        <div class="field">
          <label for={`${titleId}-note`}>{t('inbox:held.noteLabel')}</label>
          <input id={`${titleId}-note`} maxLength={500} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
        </div>
      )}
      <div class="held-send-actions">
        {mode === 'view' && (
          <>
            <button type="button" class="primary" disabled={busy} onClick={() => void approve.run()}>
              {t('inbox:held.approve')}
            </button>
            {send.type === 'text' && (
              <button type="button" disabled={busy} onClick={() => setMode('edit')}>
                {t('inbox:held.edit')}
              </button>
            )}
            <button type="button" class="danger" disabled={busy} onClick={() => setMode('reject')}>
              {t('inbox:held.reject')}
            </button>
          </>
        )}
        {mode === 'edit' && (
          <button type="button" class="primary" disabled={busy || !text.trim()} onClick={() => void approve.run()}>
            {t('inbox:held.sendEdited')}
          </button>
        )}
        {mode === 'reject' && (
          <button type="button" class="danger" disabled={busy} onClick={() => void reject.run()}>
            {t('inbox:held.confirmReject')}
          </button>
        )}
        {mode !== 'view' && (
          <button type="button" disabled={busy} onClick={() => setMode('view')}>
            {t('inbox:held.cancel')}
          </button>
        )}
      </div>
      <ErrorNote
        error={approve.error ?? reject.error}
        labels={{ message: t('inbox:held.editLabel'), note: t('inbox:held.noteLabel') }}
      />
    </li>
  );
}
