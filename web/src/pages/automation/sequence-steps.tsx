import { useId } from 'preact/hooks';
import type { PublicSchema } from '../../api/public';
import { t } from '../../i18n/i18n';
import {
  DurationField,
  formatDuration,
  newKey,
  parseDuration,
  givesVariables,
  ProblemList,
  storedVariables,
  TemplateFields,
  HeaderMediaField,
  headerMediaLabel,
  type Choice,
  type DurationDraft,
  type FieldProblem,
  type TemplateChoice,
  type TemplateSummary,
} from './common';
import { FlowSelect, usePublishedFlows } from './flow-whatsapp-flow';

const ACTION_TYPES = [
  'send_template',
  'send_text',
  'send_whatsapp_flow',
  'add_tag',
  'remove_tag',
  'start_flow',
  'wait_for_reply',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** An action type (the API's value) in words. */
function actionName(type: ActionType): string {
  switch (type) {
    case 'send_template':
      return t('automation:steps.types.send_template');
    case 'send_text':
      return t('automation:steps.types.send_text');
    case 'send_whatsapp_flow':
      return t('automation:nodes.types.send_whatsapp_flow');
    case 'add_tag':
      return t('automation:steps.types.add_tag');
    case 'remove_tag':
      return t('automation:steps.types.remove_tag');
    case 'start_flow':
      return t('automation:steps.types.start_flow');
    case 'wait_for_reply':
      return t('automation:steps.types.wait_for_reply');
  }
}

/** A step as the editor holds it: every action's fields, so switching type keeps what was typed. */
export interface StepDraft {
  key: string;
  delay: DurationDraft;
  delayFrom: 'previous' | 'enrolment';
  withinHours: boolean;
  type: ActionType;
  template: TemplateChoice;
  headerMediaUrl: string;
  text: string;
  outsideWindow: 'skip' | 'fail';
  tag: string;
  flowId: string;
  whatsappFlowId: string;
  cta: string;
  timeout: DurationDraft;
  onTimeout: 'continue' | 'exit';
}

/** A step as get-sequence answers it and save-sequence takes it. */
export type SequenceStep = PublicSchema<'Sequence'>['steps'][number];

/**
 * An id picked from a list, left out while none is picked so that the check says it is required (an
 * empty id would be "not an id"): the one request the editor sends that its type does not allow.
 */
const picked = <K extends string>(key: K, id: string) => (id ? { [key]: id } : {}) as Record<K, string>;

export function newStep(type: ActionType = 'send_template'): StepDraft {
  return {
    key: newKey(),
    delay: { amount: '0', unit: 'D' },
    delayFrom: 'previous',
    withinHours: false,
    type,
    template: { template_id: '', language: '', variables: [] },
    headerMediaUrl: '',
    text: '',
    outsideWindow: 'skip',
    tag: '',
    flowId: '',
    whatsappFlowId: '',
    cta: t('automation:whatsappFlowNode.newCta'),
    timeout: { amount: '1', unit: 'D' },
    onTimeout: 'continue',
  };
}

/** The draft of a saved step. */
export function stepDraft(step: SequenceStep): StepDraft {
  const a = step.action as Record<string, unknown>;
  const str = (key: string) => (typeof a[key] === 'string' ? a[key] : '');
  const base = newStep(step.action.type);
  return {
    ...base,
    delay: parseDuration(step.delay, base.delay),
    delayFrom: step.delay_from ?? 'previous',
    withinHours: step.within_sending_hours ?? false,
    template: {
      template_id: str('template_id'),
      language: str('language'),
      variables: storedVariables(a.variables),
    },
    headerMediaUrl: str('header_media_url'),
    text: str('text'),
    outsideWindow: a.outside_window === 'fail' ? 'fail' : 'skip',
    tag: str('tag'),
    flowId: str('flow_id'),
    whatsappFlowId: str('whatsapp_flow_id'),
    cta: str('cta') || base.cta,
    timeout: parseDuration(str('timeout'), base.timeout),
    onTimeout: a.on_timeout === 'exit' ? 'exit' : 'continue',
  };
}

/** The step to save: only the chosen action's fields, defaults left out. */
export function stepOf(draft: StepDraft): SequenceStep {
  const delay = formatDuration(draft.delay);
  return {
    ...(delay && delay !== 'PT0S' && { delay }),
    ...(draft.delayFrom === 'enrolment' && { delay_from: 'enrolment' as const }),
    ...(draft.withinHours && { within_sending_hours: true }),
    action: actionOf(draft),
  };
}

function actionOf(d: StepDraft): SequenceStep['action'] {
  switch (d.type) {
    case 'send_template':
      return {
        type: d.type,
        ...picked('template_id', d.template.template_id),
        ...(d.template.language && { language: d.template.language }),
        ...(givesVariables(d.template.variables) && { variables: d.template.variables }),
        ...(d.headerMediaUrl.trim() && { header_media_url: d.headerMediaUrl.trim() }),
      };
    case 'send_text':
      return { type: d.type, text: d.text, ...(d.outsideWindow === 'fail' && { outside_window: 'fail' }) };
    case 'send_whatsapp_flow':
      return {
        type: d.type,
        ...picked('whatsapp_flow_id', d.whatsappFlowId),
        text: d.text,
        cta: d.cta,
        ...(d.outsideWindow === 'fail' && { outside_window: 'fail' }),
      };
    case 'add_tag':
    case 'remove_tag':
      return { type: d.type, tag: d.tag };
    case 'start_flow':
      return { type: d.type, ...picked('flow_id', d.flowId) };
    case 'wait_for_reply':
      return { type: d.type, timeout: formatDuration(d.timeout) ?? '', on_timeout: d.onTimeout };
  }
}

/** The fields of each action type, so the problems of other union variants can be left out. */
const ACTION_FIELDS: Record<ActionType, string[]> = {
  send_template: ['template_id', 'language', 'variables', 'header_media_url'],
  send_text: ['text', 'outside_window'],
  send_whatsapp_flow: ['whatsapp_flow_id', 'text', 'cta', 'outside_window'],
  add_tag: ['tag'],
  remove_tag: ['tag'],
  start_flow: ['flow_id'],
  wait_for_reply: ['timeout', 'on_timeout'],
};

/** A step's fields by the labels its fieldset shows (problems name them relative to the step). */
const stepLabels = (): Record<string, string> => ({
  '/delay': t('automation:steps.labels.delay'),
  '/action': t('automation:steps.labels.action'),
  '/action/template_id': t('automation:template'),
  '/action/language': t('automation:language'),
  '/action/header_media_url': headerMediaLabel('image'),
  '/action/variables': t('automation:variables'),
  '/action/text': t('automation:steps.labels.text'),
  '/action/outside_window': t('automation:steps.outsideWindow'),
  '/action/tag': t('automation:tag'),
  '/action/flow_id': t('automation:steps.labels.flow'),
  '/action/whatsapp_flow_id': t('automation:whatsappFlowNode.flow'),
  '/action/cta': t('automation:nodes.labels.cta'),
  '/action/timeout': t('automation:steps.labels.timeout'),
  '/action/on_timeout': t('automation:steps.withoutReply'),
});

/**
 * The request check reports a bad action against every action type (the schema is a union): keep
 * the problems with the chosen type's own fields, or a single general one when none is left.
 */
export function relevantProblems(problems: FieldProblem[], type: ActionType): FieldProblem[] {
  const own = (field: string) =>
    ACTION_FIELDS[type].some((key) => field === `action/${key}` || field.startsWith(`action/${key}/`));
  const kept = problems.filter((p) => !p.field.startsWith('action') || own(p.field));
  const dropped = problems.length - kept.length;
  if (dropped > 0 && !kept.some((p) => p.field.startsWith('action'))) {
    kept.push(
      problems.find((p) => p.field === 'action') ?? { field: 'action', message: t('automation:problems.notValid') },
    );
  }
  return kept.map((p) =>
    PICKED.has(p.field) && p.message === t('automation:problems.required')
      ? { ...p, message: t('automation:problems.chooseOne') }
      : p,
  );
}

/** Fields filled by choosing from a list: a missing one is said as what to do. */
const PICKED = new Set(['action/template_id', 'action/flow_id', 'action/whatsapp_flow_id']);

/**
 * The request fields (under the step) a draft field feeds. Any action field clears the whole action's
 * problems: the request check reports a bad action against every action type, and that noise must
 * go with the real problem, or "Action is not valid" would be left behind.
 */
const REQUEST_FIELDS: Record<Exclude<keyof StepDraft, 'key'>, string> = {
  delay: 'delay',
  delayFrom: 'delay_from',
  withinHours: 'within_sending_hours',
  type: 'action',
  template: 'action',
  headerMediaUrl: 'action',
  text: 'action',
  outsideWindow: 'action',
  tag: 'action',
  flowId: 'action',
  whatsappFlowId: 'action',
  cta: 'action',
  timeout: 'action',
  onTimeout: 'action',
};

/** One step's fieldset: when it runs, what it does, and the problems a save found in it (see relevantProblems). */
export function StepEditor(props: {
  index: number;
  count: number;
  step: StepDraft;
  problems: FieldProblem[];
  templates: TemplateSummary[];
  flows: Choice[];
  /** The changed step, and the request fields the change touched (their problems go). */
  onChange: (step: StepDraft, fields: string[]) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const { step, index } = props;
  const { problems } = props;
  const set = (fields: Partial<StepDraft>) =>
    props.onChange(
      { ...step, ...fields },
      Object.keys(fields).map((key) => REQUEST_FIELDS[key as keyof typeof REQUEST_FIELDS]),
    );
  const invalid = (field: string) => problems.some((p) => p.field === field || p.field.startsWith(`${field}/`));
  const n = index + 1;
  return (
    <fieldset
      class={problems.length > 0 ? 'step invalid' : 'step'}
      aria-describedby={problems.length > 0 ? `${id}-problems` : undefined}
      data-testid={`step-${index}`}
    >
      <legend>{t('automation:steps.legend', { n, action: actionName(step.type) })}</legend>
      <ProblemList problems={problems} id={`${id}-problems`} labels={stepLabels()} />
      <div class="step-timing">
        <DurationField
          legend={t('automation:steps.delay', { n })}
          value={step.delay}
          onChange={(delay) => set({ delay })}
          invalid={invalid('delay')}
        />
        <div class="field">
          <label for={`${id}-from`}>{t('automation:steps.delayFrom')}</label>
          <select
            id={`${id}-from`}
            value={step.delayFrom}
            onChange={(e) => set({ delayFrom: e.currentTarget.value as StepDraft['delayFrom'] })}
          >
            <option value="previous">{t('automation:steps.fromPrevious')}</option>
            <option value="enrolment">{t('automation:steps.fromEnrolment')}</option>
          </select>
        </div>
        <label class="check">
          <input
            type="checkbox"
            checked={step.withinHours}
            onChange={(e) => set({ withinHours: e.currentTarget.checked })}
          />
          {t('automation:steps.withinHours')}
        </label>
      </div>
      <div class="field">
        <label for={`${id}-type`}>{t('automation:steps.action', { n })}</label>
        <select
          id={`${id}-type`}
          value={step.type}
          onChange={(e) => set({ type: e.currentTarget.value as ActionType })}
        >
          {ACTION_TYPES.map((type) => (
            <option key={type} value={type}>
              {actionName(type)}
            </option>
          ))}
        </select>
      </div>
      <ActionFields {...props} set={set} invalid={(field) => invalid(`action/${field}`)} />
      <div class="step-actions">
        <button type="button" disabled={index === 0} onClick={() => props.onMove(-1)}>
          {t('automation:steps.moveUp')}
          <span class="visually-hidden"> {t('automation:steps.step', { n })}</span>
        </button>
        <button type="button" disabled={index === props.count - 1} onClick={() => props.onMove(1)}>
          {t('automation:steps.moveDown')}
          <span class="visually-hidden"> {t('automation:steps.step', { n })}</span>
        </button>
        <button type="button" class="danger" disabled={props.count === 1} onClick={props.onRemove}>
          {t('automation:remove')}
          <span class="visually-hidden"> {t('automation:steps.step', { n })}</span>
        </button>
      </div>
    </fieldset>
  );
}

function ActionFields(props: {
  step: StepDraft;
  index: number;
  templates: TemplateSummary[];
  flows: Choice[];
  set: (fields: Partial<StepDraft>) => void;
  invalid: (field: string) => boolean;
}) {
  const id = useId();
  const { step, set, invalid } = props;
  const n = props.index + 1;
  switch (step.type) {
    case 'send_template':
      return (
        <>
          <TemplateFields
            templates={props.templates}
            value={step.template}
            onChange={(template) => set({ template })}
            invalid={invalid}
          />
          <HeaderMediaField
            template={props.templates.find((t) => t.id === step.template.template_id)}
            value={step.headerMediaUrl}
            onValue={(headerMediaUrl) => set({ headerMediaUrl })}
            invalid={invalid('header_media_url')}
          />
        </>
      );
    case 'send_text':
      return <StepText {...props} />;
    case 'send_whatsapp_flow':
      return <StepWhatsappFlow {...props} />;
    case 'add_tag':
    case 'remove_tag':
      return (
        <div class="field">
          <label for={`${id}-tag`}>{t('automation:steps.tag', { n })}</label>
          <input
            id={`${id}-tag`}
            value={step.tag}
            maxLength={64}
            aria-invalid={invalid('tag') ? true : undefined}
            onInput={(e) => set({ tag: e.currentTarget.value })}
          />
        </div>
      );
    case 'start_flow':
      return (
        <div class="field">
          <label for={`${id}-flow`}>{t('automation:steps.flow', { n })}</label>
          <select
            id={`${id}-flow`}
            value={step.flowId}
            aria-invalid={invalid('flow_id') ? true : undefined}
            onChange={(e) => set({ flowId: e.currentTarget.value })}
          >
            <option value="">{t('automation:steps.chooseFlow')}</option>
            {props.flows.map((flow) => (
              <option key={flow.id} value={flow.id}>
                {flow.label}
              </option>
            ))}
          </select>
        </div>
      );
    case 'wait_for_reply':
      return (
        <>
          <DurationField
            legend={t('automation:steps.timeout', { n })}
            min={1}
            value={step.timeout}
            onChange={(timeout) => set({ timeout })}
            invalid={invalid('timeout')}
          />
          <div class="field">
            <label for={`${id}-ot`}>{t('automation:steps.withoutReply')}</label>
            <select
              id={`${id}-ot`}
              value={step.onTimeout}
              onChange={(e) => set({ onTimeout: e.currentTarget.value as StepDraft['onTimeout'] })}
            >
              <option value="continue">{t('automation:steps.goOn')}</option>
              <option value="exit">{t('automation:steps.endEnrolment')}</option>
            </select>
          </div>
        </>
      );
  }
}

type ActionFieldProps = {
  step: StepDraft;
  index: number;
  set: (fields: Partial<StepDraft>) => void;
  invalid: (field: string) => boolean;
};

/** A message's text (placeholders named in the hint), and what happens outside the 24-hour window. */
function StepText(props: ActionFieldProps) {
  const id = useId();
  const { step, set, invalid } = props;
  const n = props.index + 1;
  return (
    <>
      <div class="field">
        <label for={`${id}-text`}>{t('automation:steps.text', { n })}</label>
        <textarea
          id={`${id}-text`}
          value={step.text}
          aria-invalid={invalid('text') ? true : undefined}
          onInput={(e) => set({ text: e.currentTarget.value })}
        />
        <small class="hint">
          {t('automation:steps.textHint', {
            placeholders: '{{contact.name}}, {{attributes.KEY}}, {{context.KEY}}',
          })}
        </small>
      </div>
      <div class="field">
        <label for={`${id}-ow`}>{t('automation:steps.outsideWindow')}</label>
        <select
          id={`${id}-ow`}
          value={step.outsideWindow}
          onChange={(e) => set({ outsideWindow: e.currentTarget.value as StepDraft['outsideWindow'] })}
        >
          <option value="skip">{t('automation:steps.skipStep')}</option>
          <option value="fail">{t('automation:steps.failEnrolment')}</option>
        </select>
      </div>
    </>
  );
}

/** A published WhatsApp Flow picked from the account's list, the button that opens it and its message. */
function StepWhatsappFlow(props: ActionFieldProps) {
  const id = useId();
  const published = usePublishedFlows();
  const { step, set, invalid } = props;
  return (
    <>
      <FlowSelect
        label={t('automation:whatsappFlowNode.flow')}
        flows={published.data ?? []}
        loading={published.loading}
        value={step.whatsappFlowId}
        invalid={invalid('whatsapp_flow_id')}
        onValue={(whatsappFlowId) => set({ whatsappFlowId })}
      />
      <div class="field">
        <label for={`${id}-cta`}>{t('automation:nodes.labels.cta')}</label>
        <input
          id={`${id}-cta`}
          value={step.cta}
          maxLength={30}
          aria-invalid={invalid('cta') ? true : undefined}
          onInput={(e) => set({ cta: e.currentTarget.value })}
        />
      </div>
      <StepText {...props} />
    </>
  );
}
