import { useState } from 'preact/hooks';
import { action, type ActionAnswer } from '../../api/client';
import { formatDateTime } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { Link } from '../../router';
import { messageStatusName } from '../message-status';
import { AttachFile, fileError, fileLabels, mediaMessage, useAttachment } from './attachment';
import { senderLabel } from './bubbles';
import { useLiveReload } from './events';
import { TemplateForm } from './template-form';
import type { InboxEvent } from './types';
import { textIn } from './words';
import { CopyButton, ErrorNote, Page, Table, TextField, fieldErrors, useAsync, useSubmit } from '../../ui';

type Group = ActionAnswer<'get-group'>;
type GroupMessage = ActionAnswer<'list-group-messages'>[number];

/** Inbox → WhatsApp groups: the workspace's groups, and a new one. */
export function GroupsPage() {
  const groups = useAsync(() => action('list-groups', {}), []);
  useLiveReload(groups.reload, (event) => event.type === 'group');
  return (
    <Page title={t('inbox:groups.title')} actions={<Link href="/inbox">{t('inbox:groups.backToInbox')}</Link>}>
      <p class="muted">{t('inbox:groups.intro')}</p>
      <ErrorNote error={groups.error} />
      {groups.data && groups.data.length === 0 && <p class="muted">{t('inbox:groups.none')}</p>}
      {groups.data && groups.data.length > 0 && (
        <Table
          caption={t('inbox:groups.title')}
          columns={[
            t('inbox:groups.subject'),
            t('inbox:groups.participants'),
            t('inbox:groups.state'),
            t('inbox:groups.lastMessage'),
          ]}
        >
          {groups.data.map((group) => (
            <tr key={group.id}>
              <td>
                <Link href={`/inbox/groups/${group.id}`}>{subjectOf(group)}</Link>
              </td>
              <td>{group.participants.length}</td>
              <td>{t(`inbox:groups.states.${group.state}`)}</td>
              <td>{group.last_message_at ? formatDateTime(group.last_message_at) : '—'}</td>
            </tr>
          ))}
        </Table>
      )}
      <NewGroupForm onCreated={groups.reload} />
    </Page>
  );
}

function NewGroupForm({ onCreated }: { onCreated: () => void }) {
  const [subject, setSubject] = useState('');
  const [description, setDescription] = useState('');
  const [approval, setApproval] = useState(false);
  const create = useSubmit(async () => {
    await action('create-group', { subject, ...(description && { description }), join_approval: approval });
    setSubject('');
    setDescription('');
    onCreated();
  });
  const labels = { subject: t('inbox:groups.subject'), description: t('inbox:groups.description') };
  const errors = fieldErrors(create.error, labels);
  return (
    <form class="group-form" onSubmit={create.onSubmit} aria-label={t('inbox:groups.newLabel')}>
      <h2>{t('inbox:groups.newLabel')}</h2>
      <TextField
        label={labels.subject}
        value={subject}
        onValue={setSubject}
        required
        maxLength={128}
        error={errors.field('subject')}
      />
      <TextField
        label={labels.description}
        value={description}
        onValue={setDescription}
        maxLength={2048}
        error={errors.field('description')}
      />
      <label class="checkbox">
        <input type="checkbox" checked={approval} onChange={(e) => setApproval(e.currentTarget.checked)} />
        {t('inbox:groups.joinApproval')}
      </label>
      <ErrorNote error={errors.note} />
      <button type="submit" class="primary" disabled={create.busy}>
        {t('inbox:groups.create')}
      </button>
    </form>
  );
}

/** One group: who is in it, its invite link, its conversation and what to send it (while it is active). */
export function GroupPage({ id }: { id: string }) {
  const group = useAsync(() => action('get-group', { group_id: id }), [id]);
  const messages = useAsync(() => action('list-group-messages', { group_id: id }), [id]);
  const concernsThisGroup = (event: InboxEvent) => event.type === 'group' && event.group_id === id;
  useLiveReload(messages.reload, concernsThisGroup);
  useLiveReload(group.reload, concernsThisGroup);
  const title = group.data ? subjectOf(group.data) : t('inbox:groups.title');
  return (
    <Page title={title} actions={<Link href="/inbox/groups">{t('inbox:groups.allGroups')}</Link>}>
      <ErrorNote error={group.error ?? messages.error} />
      {group.data && <GroupFacts group={group.data} onChange={group.reload} />}
      <ol class="thread group-thread" aria-label={t('inbox:groups.conversation')}>
        {[...(messages.data ?? [])].reverse().map((message) => (
          <GroupBubble key={message.id} message={message} />
        ))}
      </ol>
      {group.data &&
        (group.data.state === 'active' ? (
          <GroupComposer groupId={id} onSent={messages.reload} />
        ) : (
          <p class="warning">{t('inbox:groups.notWritable')}</p>
        ))}
    </Page>
  );
}

function GroupFacts({ group, onChange }: { group: Group; onChange: () => void }) {
  const link = useSubmit(async () => {
    await action('get-group-invite-link', { group_id: group.id });
    onChange();
  });
  return (
    <section class="group-facts" aria-label={t('inbox:groups.about')}>
      <p>
        {t('inbox:groups.stateIs', { state: t(`inbox:groups.states.${group.state}`) })}{' '}
        {t('inbox:groups.participantCount', { count: group.participants.length })}
      </p>
      {group.description && <p class="muted">{group.description}</p>}
      <ul class="group-participants" aria-label={t('inbox:groups.participants')}>
        {group.participants.map((person) => (
          <li key={person.wa_id ?? person.user_id}>{person.wa_id ? `+${person.wa_id}` : person.user_id}</li>
        ))}
      </ul>
      {group.invite_link && (
        <p>
          {t('inbox:groups.inviteLink')} <a href={group.invite_link}>{group.invite_link}</a>{' '}
          <CopyButton text={group.invite_link} />
        </p>
      )}
      {group.state === 'active' && (
        <button type="button" onClick={link.onSubmit} disabled={link.busy}>
          {t('inbox:groups.refreshLink')}
        </button>
      )}
      <ErrorNote error={link.error} />
    </section>
  );
}

/** Who wrote a group message: the participant as Meta named them, or who of the business sent it. */
function authorOf(message: GroupMessage): string {
  if (message.direction === 'outbound') return message.sender ? senderLabel(message.sender) : t('inbox:message.sent');
  const participant = message.content.sender as { wa_id?: string | null; name?: string | null } | undefined;
  return participant?.name ?? (participant?.wa_id ? `+${participant.wa_id}` : t('inbox:groups.someone'));
}

/** A message in the group: its author, its text (a file's kind and caption, a template's text), time and status. */
function GroupBubble({ message }: { message: GroupMessage }) {
  const template = message.type === 'template' ? message.content.template_name : null;
  return (
    <li class={`bubble ${message.direction}`}>
      <p class="bubble-sender">{authorOf(message)}</p>
      <p dir="auto">{textIn(message)}</p>
      {typeof template === 'string' && (
        <span class="muted bubble-kind">{t('inbox:message.template', { name: template })}</span>
      )}
      <small class="muted">
        {formatDateTime(message.sent_at ?? message.created_at)}
        {message.direction === 'outbound' && ` · ${messageStatusName(message.status)}`}
      </small>
    </li>
  );
}

/** Writing to the group: text, or a file with the text as its caption; or an approved template. */
function GroupComposer({ groupId, onSent }: { groupId: string; onSent: () => void }) {
  const [text, setText] = useState('');
  const [templateOpen, setTemplateOpen] = useState(false);
  // Its problem goes when another file is chosen (`send` is declared below; this runs on a choice).
  const attachment = useAttachment((...fields) => send.edited(...fields));
  const { file } = attachment;
  const to = { group_id: groupId };
  const send = useSubmit(async () => {
    if (file) await action('send-group-media', { ...to, ...(await mediaMessage(file, text)) });
    else await action('send-group-text', { ...to, message: text });
    setText('');
    attachment.clear();
    onSent();
  });
  const label = file ? t('inbox:reply.caption') : t('inbox:groups.message');
  const errors = fieldErrors(send.error, { message: label, caption: label, ...fileLabels() });
  const textError = errors.field('message') ?? errors.field('caption');
  return (
    <section class="reply" aria-label={t('inbox:groups.replyLabel')}>
      <form class="reply-form" onSubmit={send.onSubmit}>
        <div class="field">
          <label for="group-message">{label}</label>
          <textarea
            id="group-message"
            value={text}
            maxLength={4096}
            aria-invalid={textError ? true : undefined}
            aria-describedby={textError ? 'group-message-error' : undefined}
            onInput={(e) => {
              setText(e.currentTarget.value);
              send.edited('message', 'caption');
            }}
          />
          {textError && (
            <small id="group-message-error" class="error">
              {textError}
            </small>
          )}
        </div>
        <div class="reply-tools">
          <AttachFile attachment={attachment} error={fileError(errors)} />
        </div>
        <ErrorNote error={errors.note} />
        <div class="reply-actions">
          <button type="submit" class="primary" disabled={send.busy || (!text.trim() && !file)}>
            {t('inbox:groups.send')}
          </button>
          <button type="button" aria-expanded={templateOpen} onClick={() => setTemplateOpen(!templateOpen)}>
            {t('inbox:reply.sendTemplate')}
          </button>
        </div>
      </form>
      {templateOpen && (
        <TemplateForm
          to={to}
          onSent={() => {
            setTemplateOpen(false);
            onSent();
          }}
        />
      )}
    </section>
  );
}

const subjectOf = (group: Pick<Group, 'subject'>) => group.subject || t('inbox:groups.untitled');
