import { useEffect, useId, useState } from 'preact/hooks';
import { action, type ActionAnswer } from '../../api/client';
import { addEnglish, t } from '../../i18n/i18n';
import simulator from '../../locales/en/simulator.json';
import { ErrorNote, useAsync, useSubmit } from '../../ui';
import { useLiveReload } from '../inbox/events';
import { ConversationView } from '../simulator';
import type { FlowStats } from './flow-stats';

// The simulator's conversation comes with its words (the settings area loads them for the Simulator page).
addEnglish({ simulator });

export type TryRun = ActionAnswer<'try-flow'>;

/**
 * "Try it": the try-run's conversation in the simulator, where the person plays the customer (reads the
 * flow's messages, taps its buttons and rows, types replies), and the run's path for the canvas to light,
 * followed live through the inbox's event stream.
 */
export function TryPanel(props: {
  flowId: string;
  run: TryRun;
  onPath: (path: FlowStats | null) => void;
  onClose: () => void;
}) {
  const { run, onPath } = props;
  const path = useAsync(
    () => action('get-flow-stats', { flow_id: props.flowId, run_id: run.run_id }),
    [props.flowId, run.run_id],
  );
  useLiveReload(path.reload, (event) => 'contact_id' in event && event.contact_id === run.contact_id);
  useEffect(() => onPath(path.data ?? null), [path.data, onPath]);
  useEffect(() => () => onPath(null), [onPath]);
  const contact = { id: run.contact_id, phone: run.contact_phone, name: null };
  return (
    <section class="try-panel" aria-labelledby="try-title">
      <div class="sim-conversation-header">
        <h2 id="try-title">{t('automation:builder.try.title')}</h2>
        <button type="button" onClick={props.onClose}>
          {t('automation:builder.try.close')}
        </button>
      </div>
      <p class="muted">{t('automation:builder.try.intro')}</p>
      <ErrorNote error={path.error} />
      <ConversationView contact={contact} />
      <ReplyForm phone={run.contact_phone} />
    </section>
  );
}

/** What the person, as the customer, types back (a tap is the conversation's own buttons). */
function ReplyForm({ phone }: { phone: string }) {
  const id = useId();
  const [text, setText] = useState('');
  const send = useSubmit(async () => {
    await action('simulate-inbound-message', { phone, text });
    setText('');
  });
  return (
    <form class="try-reply" onSubmit={send.onSubmit}>
      <label for={id}>{t('automation:builder.try.reply')}</label>
      <input id={id} required maxLength={4096} value={text} onInput={(e) => setText(e.currentTarget.value)} />
      <button type="submit" disabled={send.busy}>
        {t('automation:builder.try.send')}
      </button>
      <ErrorNote error={send.error} />
    </form>
  );
}
