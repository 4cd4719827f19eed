import { useId, useState } from 'preact/hooks';
import { ApiError, formProblem } from '../../api';
import { action, dashboard, type DashboardOptions } from '../../api/client';
import { Link, navigate } from '../../router';
import { t } from '../../i18n/i18n';
import { ErrorNote, Page, TextField, useAsync, useSubmit } from '../../ui';
import { ConfirmSend, localToIso, type Audience, type OverLimit, type Review } from './campaign-confirm';
import {
  headerMedia,
  headerMediaLabel,
  HeaderMediaField,
  problemsOf,
  ProblemList,
  TemplateFields,
  useTemplates,
  type FieldProblem,
  type TemplateChoice,
} from './common';
import './words';

type AudienceKind = 'tag' | 'search' | 'phones';

/** The form's labels, by the request field a problem names. */
const labels = (): Record<string, string> => ({
  '/name': t('automation:name'),
  '/template_id': t('automation:template'),
  '/language': t('automation:language'),
  '/variables': t('automation:variables'),
  '/audience': t('automation:campaigns.audience'),
  '/audience/tag': t('automation:tag'),
  '/audience/contact_ids': t('automation:campaignNew.phoneNumbers'),
  '/scheduled_at': t('automation:campaignNew.sendAt'),
  '/phone': t('automation:campaignNew.testNumber'),
});

/** A problem the form finds before asking the server. */
const refuse = (field: string, message: string) => formProblem(field, message, t('automation:campaignNew.notSent'));

/** Each pasted phone as a contact id (get-contact); the phones that are no contact are reported. */
async function resolvePhones(text: string): Promise<string[]> {
  const phones = [...new Set(text.split(/[\s,;]+/).filter(Boolean))];
  if (phones.length === 0) throw refuse('/audience/contact_ids', t('automation:campaignNew.phonesRequired'));
  const ids: string[] = [];
  const unknown: string[] = [];
  for (const phone of phones) {
    try {
      ids.push((await action('get-contact', { phone })).id);
    } catch (error) {
      if (error instanceof ApiError && (error.problem.status === 404 || error.problem.status === 400)) {
        unknown.push(phone);
      } else throw error;
    }
  }
  if (unknown.length > 0)
    throw refuse('/audience/contact_ids', t('automation:campaignNew.unknownPhones', { phones: unknown.join(', ') }));
  return ids;
}

/** /campaigns/new: template, audience, now or later; a test send; a review (who, what, what it costs) before confirming. */
export function NewCampaign() {
  const templates = useTemplates('APPROVED');
  const [name, setName] = useState('');
  const [template, setTemplate] = useState<TemplateChoice>({ template_id: '', language: '', variables: [] });
  const [headerLink, setHeaderLink] = useState('');
  const [audience, setAudience] = useState<AudienceDraft>({ kind: 'tag', tag: '', query: '', phones: '' });
  const [when, setWhen] = useState<'now' | 'later'>('now');
  const [at, setAt] = useState('');
  const [review, setReview] = useState<Review | null>(null);
  const [overLimit, setOverLimit] = useState<OverLimit>('send');
  const chosen = templates.data?.find((t) => t.id === template.template_id);
  const media = headerMedia(chosen);
  const message = {
    template_id: template.template_id,
    ...(template.language && { language: template.language }),
    variables: template.variables,
    ...(media && headerLink.trim() && { header_media_url: headerLink.trim() }),
  };

  const check = useSubmit(async () => {
    setReview(null);
    if (!name.trim()) throw refuse('/name', t('automation:problems.required'));
    if (!template.template_id) throw refuse('/template_id', t('automation:problems.chooseOne'));
    if (media && !headerLink.trim()) throw refuse('/header_media_url', t('automation:campaignNew.headerRequired'));
    if (when === 'later' && !at) throw refuse('/scheduled_at', t('automation:campaignNew.whenRequired'));
    const chosenAudience = await audienceOf(audience);
    const reviewed = await dashboard.post('/api/dashboard/campaigns/review', {
      body: { ...message, audience: chosenAudience },
    });
    setReview({ audience: chosenAudience, ...reviewed });
  });
  const create = useSubmit(async () => {
    const campaign = await action('create-campaign', {
      name,
      ...message,
      audience: review!.audience,
      ...(when === 'later' && { scheduled_at: localToIso(at) }),
      over_limit: overLimit,
    });
    navigate(`/campaigns/${campaign.id}`);
  });
  const problems = problemsOf(check.error ?? create.error);
  const invalid = (field: string) => problems.some((p) => p.field === `/${field}` || p.field.startsWith(`/${field}/`));
  /** A field's change: the review is out of date, and the field's problems go. */
  const changed =
    <T,>(fields: string[], set: (value: T) => void) =>
    (value: T) => {
      setReview(null);
      set(value);
      check.edited(...fields);
      create.edited(...fields);
    };

  return (
    <Page
      title={t('automation:campaigns.new')}
      actions={<Link href="/campaigns">{t('automation:campaigns.all')}</Link>}
    >
      <form class="automation-editor" onSubmit={check.onSubmit} aria-label={t('automation:campaigns.new')} noValidate>
        <TextField
          label={t('automation:name')}
          required
          maxLength={200}
          value={name}
          onValue={changed(['/name'], setName)}
          aria-invalid={invalid('name') || undefined}
        />
        <fieldset class="group">
          <legend>{t('automation:campaignNew.message')}</legend>
          <ErrorNote error={templates.error} />
          {templates.data && templates.data.length === 0 && (
            <p class="warning">
              {t('automation:campaignNew.noApprovedBefore')}{' '}
              <Link href="/templates">{t('automation:campaignNew.noApprovedLink')}</Link>
              {t('automation:campaignNew.noApprovedAfter')}
            </p>
          )}
          <TemplateFields
            templates={templates.data ?? []}
            value={template}
            onChange={changed(['/template_id', '/language', '/variables'], setTemplate)}
            approvedOnly
            invalid={invalid}
          />
          <HeaderMediaField
            template={chosen}
            value={headerLink}
            onValue={changed(['/header_media_url'], setHeaderLink)}
            invalid={invalid('header_media_url')}
          />
          <small class="hint">
            {t('automation:campaignNew.variablesHint', {
              placeholders: '{{contact.name}}, {{contact.phone}}, {{contact.email}}, {{attributes.KEY}}',
            })}
          </small>
          <SampleSend message={message} disabled={!template.template_id} />
        </fieldset>
        <AudienceFields value={audience} onChange={changed(['/audience'], setAudience)} invalid={invalid('audience')} />
        <ScheduleFields
          when={when}
          at={at}
          onWhen={changed(['/scheduled_at'], setWhen)}
          onAt={changed(['/scheduled_at'], setAt)}
        />
        <ProblemList problems={problems} labels={{ ...labels(), '/header_media_url': headerMediaLabel(media) }} />
        {problems.length === 0 && <ErrorNote error={check.error ?? create.error} />}
        {review ? (
          <ConfirmSend
            review={review}
            name={name}
            at={when === 'later' ? at : null}
            busy={create.busy}
            overLimit={overLimit}
            onOverLimit={setOverLimit}
            onConfirm={create.onSubmit}
            onBack={() => setReview(null)}
          />
        ) : (
          <div class="form-actions">
            <button type="submit" class="primary" disabled={check.busy}>
              {t('automation:campaignNew.reviewAndSend')}
            </button>
          </div>
        )}
      </form>
    </Page>
  );
}

interface AudienceDraft {
  kind: AudienceKind;
  tag: string;
  query: string;
  phones: string;
}

async function audienceOf(draft: AudienceDraft): Promise<Audience> {
  if (draft.kind === 'tag') {
    if (!draft.tag) throw refuse('/audience/tag', t('automation:problems.chooseOne'));
    return { tag: draft.tag };
  }
  if (draft.kind === 'search') return { search: { query: draft.query } };
  return { contact_ids: await resolvePhones(draft.phones) };
}

/** Who receives it: a tag chosen from the workspace's tags, a search, or pasted phone numbers. */
function AudienceFields(props: { value: AudienceDraft; onChange: (value: AudienceDraft) => void; invalid: boolean }) {
  const id = useId();
  const tags = useAsync(() => action('list-tags', {}), []);
  const { value, onChange } = props;
  const set = (fields: Partial<AudienceDraft>) => onChange({ ...value, ...fields });
  const kinds: [AudienceKind, string][] = [
    ['tag', t('automation:campaignNew.audienceTag')],
    ['search', t('automation:campaignNew.audienceSearch')],
    ['phones', t('automation:campaignNew.audiencePhones')],
  ];
  return (
    <fieldset class="group">
      <legend>{t('automation:campaigns.audience')}</legend>
      <div class="radio-row">
        {kinds.map(([kind, label]) => (
          <label class="check" key={kind}>
            <input
              type="radio"
              name={`${id}-audience`}
              value={kind}
              checked={value.kind === kind}
              onChange={() => set({ kind })}
            />
            {label}
          </label>
        ))}
      </div>
      {value.kind === 'tag' && (
        <div class="field">
          <label for={`${id}-tag`}>{t('automation:tag')}</label>
          <select
            id={`${id}-tag`}
            required
            value={value.tag}
            aria-invalid={props.invalid || undefined}
            onChange={(e) => set({ tag: e.currentTarget.value })}
          >
            <option value="">{t('automation:campaignNew.chooseTag')}</option>
            {tags.data?.map((tag) => (
              <option key={tag.id} value={tag.name}>
                {tag.name}
              </option>
            ))}
          </select>
          <ErrorNote error={tags.error} />
          {tags.data?.length === 0 && (
            <small class="hint">
              {t('automation:campaignNew.noTagsBefore')}{' '}
              <Link href="/contacts">{t('automation:campaignNew.noTagsLink')}</Link>
              {t('automation:campaignNew.noTagsAfter')}
            </small>
          )}
        </div>
      )}
      {value.kind === 'search' && (
        <TextField
          label={t('automation:campaignNew.search')}
          value={value.query}
          onValue={(query) => set({ query })}
          hint={t('automation:campaignNew.searchHint')}
        />
      )}
      {value.kind === 'phones' && (
        <div class="field">
          <label for={`${id}-phones`}>{t('automation:campaignNew.phoneNumbers')}</label>
          <textarea
            id={`${id}-phones`}
            value={value.phones}
            aria-invalid={props.invalid || undefined}
            onInput={(e) => set({ phones: e.currentTarget.value })}
            aria-describedby={`${id}-phones-hint`}
          />
          <small class="hint" id={`${id}-phones-hint`}>
            {t('automation:campaignNew.phonesHint')}
          </small>
        </div>
      )}
    </fieldset>
  );
}

/** Now or later; a time that has already passed is called out (the campaign would go at once). */
function ScheduleFields(props: {
  when: 'now' | 'later';
  at: string;
  onWhen: (w: 'now' | 'later') => void;
  onAt: (at: string) => void;
}) {
  const id = useId();
  const past = props.when === 'later' && props.at !== '' && new Date(props.at).getTime() < Date.now();
  return (
    <fieldset class="group">
      <legend>{t('automation:campaignNew.when')}</legend>
      <div class="radio-row">
        <label class="check">
          <input type="radio" name={`${id}-when`} checked={props.when === 'now'} onChange={() => props.onWhen('now')} />
          {t('automation:campaignNew.sendNow')}
        </label>
        <label class="check">
          <input
            type="radio"
            name={`${id}-when`}
            checked={props.when === 'later'}
            onChange={() => props.onWhen('later')}
          />
          {t('automation:campaignNew.schedule')}
        </label>
      </div>
      {props.when === 'later' && (
        <TextField
          label={t('automation:campaignNew.sendAtLocal')}
          type="datetime-local"
          value={props.at}
          onValue={props.onAt}
          hint={t('automation:campaignNew.timeZone', { zone: Intl.DateTimeFormat().resolvedOptions().timeZone })}
        />
      )}
      {past && (
        <p class="warning" role="alert">
          {t('automation:campaignNew.pastTime')}
        </p>
      )}
    </fieldset>
  );
}

/** The campaign's message, as campaigns/sample takes it besides the number. */
type SampleMessage = Omit<DashboardOptions<'/api/dashboard/campaigns/sample', 'post'>['body'], 'phone'>;

/** Sends the message, its placeholders filled for that contact, to one number first. */
function SampleSend({ message, disabled }: { message: SampleMessage; disabled: boolean }) {
  const [phone, setPhone] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const send = useSubmit(async () => {
    setSent(null);
    if (!phone.trim()) throw refuse('/phone', t('automation:problems.required'));
    await dashboard.post('/api/dashboard/campaigns/sample', { body: { ...message, phone } });
    setSent(phone.trim());
  });
  const problems: FieldProblem[] = problemsOf(send.error);
  return (
    <div class="sample-send">
      <TextField
        label={t('automation:campaignNew.testNumber')}
        type="tel"
        value={phone}
        onValue={setPhone}
        placeholder="+14155550100"
        autoComplete="off"
      />
      <button type="button" disabled={disabled || send.busy} onClick={send.onSubmit}>
        {t('automation:campaignNew.sendTest')}
      </button>
      <ProblemList problems={problems} labels={labels()} />
      {problems.length === 0 && <ErrorNote error={send.error} />}
      {sent && (
        <p class="notice" role="status">
          {t('automation:campaignNew.testSent', { phone: sent })}
        </p>
      )}
    </div>
  );
}
