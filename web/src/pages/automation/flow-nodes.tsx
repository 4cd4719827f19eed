import type { ComponentChildren } from 'preact';
import { useId, useRef, useState } from 'preact/hooks';
import { t } from '../../i18n/i18n';
import { DurationField, formatDuration, parseDuration } from './common';
import type { PublicSchema } from '../../api/public';

/**
 * A node as the builder holds it while it is drafted: its type and whatever fields it has so far. The
 * API checks it against the flow's schema on save.
 */
export type FlowNode = { id: string; type: NodeType } & Record<string, unknown>;

/** The node types the builder adds, in the order its menu offers them. */
export const NODE_TYPES = [
  'send_text',
  'send_buttons',
  'send_list',
  'send_template',
  'send_whatsapp_flow',
  'ask',
  'wait_for_reply',
  'branch',
  'add_tag',
  'remove_tag',
  'set_attribute',
  'webhook',
  'handoff',
  'ai_assistant',
  'end',
] as const satisfies readonly NodeType[];
/** A node type as the API's schema has it (nodeTypeName's words name each one, so a new type needs its words). */
export type NodeType = PublicSchema<'Flow'>['nodes'][number]['type'];

/** A node type (the API's value) in words; an unknown one as it is. */
export function nodeTypeName(type: string): string {
  const names: Record<NodeType, string> = {
    send_text: t('automation:nodes.types.send_text'),
    send_template: t('automation:nodes.types.send_template'),
    send_buttons: t('automation:nodes.types.send_buttons'),
    send_list: t('automation:nodes.types.send_list'),
    send_whatsapp_flow: t('automation:nodes.types.send_whatsapp_flow'),
    ask: t('automation:nodes.types.ask'),
    wait_for_reply: t('automation:nodes.types.wait_for_reply'),
    branch: t('automation:nodes.types.branch'),
    add_tag: t('automation:nodes.types.add_tag'),
    remove_tag: t('automation:nodes.types.remove_tag'),
    set_attribute: t('automation:nodes.types.set_attribute'),
    webhook: t('automation:nodes.types.webhook'),
    handoff: t('automation:nodes.types.handoff'),
    ai_assistant: t('automation:nodes.types.ai_assistant'),
    end: t('automation:nodes.types.end'),
  };
  return names[type as NodeType] ?? type;
}

type FieldKind = 'text' | 'message' | 'duration' | 'number' | 'select';
/** One field a node's panel shows besides its exits, its choices and its template. */
export interface FieldSpec {
  key: string;
  /** Its label, in the language shown when it is drawn. */
  label: () => string;
  kind: FieldKind;
  /** A select's choices: the API's values, each with its words. */
  options?: () => Record<string, string>;
  hint?: () => string;
  /** A duration the node may go without: "No time limit" is offered. */
  optional?: true;
}

const text: FieldSpec = { key: 'text', label: () => t('automation:nodes.labels.text'), kind: 'message' };
const timeout: FieldSpec = { key: 'timeout', label: () => t('automation:builder.waitUpTo'), kind: 'duration' };
/** A wait's time limit, which it may go without (it then waits until a reply comes or the run is stopped). */
export const WAIT_TIMEOUT: FieldSpec = { ...timeout, optional: true };
const tag: FieldSpec = { key: 'tag', label: () => t('automation:tag'), kind: 'text' };

/** Each node type's own fields (buttons, list sections, branches and templates have their own editors). */
export const FIELDS: Record<NodeType, FieldSpec[]> = {
  send_text: [text],
  send_template: [],
  send_buttons: [text],
  send_list: [text, { key: 'button', label: () => t('automation:nodes.labels.button_label'), kind: 'text' }],
  ask: [
    text,
    {
      key: 'attribute',
      label: () => t('automation:nodes.labels.attribute_reply'),
      kind: 'text',
      hint: () => t('automation:builder.attributeHint'),
    },
    {
      key: 'validate',
      label: () => t('automation:nodes.labels.validate'),
      kind: 'select',
      options: () => ({
        any: t('automation:nodes.validate.any'),
        email: t('automation:nodes.validate.email'),
        phone: t('automation:nodes.validate.phone'),
        number: t('automation:nodes.validate.number'),
      }),
    },
    timeout,
    { key: 'retries', label: () => t('automation:nodes.labels.retries'), kind: 'number' },
    { key: 'retry_text', label: () => t('automation:nodes.labels.retry_text'), kind: 'message' },
  ],
  send_whatsapp_flow: [
    text,
    { key: 'header', label: () => t('automation:nodes.labels.header'), kind: 'text' },
    { key: 'footer', label: () => t('automation:nodes.labels.footer'), kind: 'text' },
    { key: 'cta', label: () => t('automation:nodes.labels.cta'), kind: 'text' },
    {
      key: 'screen',
      label: () => t('automation:nodes.labels.screen'),
      kind: 'text',
      hint: () => t('automation:whatsappFlowNode.screenHint'),
    },
    { ...WAIT_TIMEOUT, label: () => t('automation:whatsappFlowNode.waitUpTo') },
  ],
  wait_for_reply: [WAIT_TIMEOUT],
  branch: [],
  add_tag: [tag],
  remove_tag: [tag],
  set_attribute: [
    {
      key: 'attribute',
      label: () => t('automation:nodes.labels.attribute'),
      kind: 'text',
      hint: () => t('automation:builder.attributeHint'),
    },
    { key: 'value', label: () => t('automation:nodes.labels.value'), kind: 'message' },
  ],
  webhook: [
    { key: 'url', label: () => t('automation:nodes.labels.url'), kind: 'text' },
    // HTTP methods are the same in every language.
    {
      key: 'method',
      label: () => t('automation:nodes.labels.method'),
      kind: 'select',
      options: () => ({ POST: 'POST', GET: 'GET' }),
    },
    { key: 'timeout_ms', label: () => t('automation:nodes.labels.timeout_ms'), kind: 'number' },
    {
      key: 'save_as',
      label: () => t('automation:nodes.labels.save_as'),
      kind: 'text',
      hint: () => t('automation:builder.attributeHint'),
    },
  ],
  handoff: [{ key: 'note', label: () => t('automation:nodes.labels.note'), kind: 'message' }],
  ai_assistant: [],
  end: [],
};

/** The node as save-flow takes it: empty optional fields left out. */
export function cleanNode(node: FlowNode): FlowNode {
  const out: FlowNode = { id: node.id, type: node.type };
  for (const [key, value] of Object.entries(node)) {
    if (key === 'id' || key === 'type') continue;
    if (value === '' && key !== 'value' && key !== 'equals') continue;
    if (value === undefined || value === null) continue;
    out[key] = value;
  }
  return out;
}

/** A field of a node's panel, by its spec; `variables` are offered to a message's text. */
export function NodeField(props: {
  spec: FieldSpec;
  value: unknown;
  onValue: (value: unknown) => void;
  invalid: boolean;
  variables: string[];
}) {
  const id = useId();
  const { spec, value, onValue } = props;
  if (spec.kind === 'duration') {
    const duration = <NodeDuration legend={spec.label()} value={value} onValue={onValue} invalid={props.invalid} />;
    return spec.optional ? <TimeLimit value={value} onValue={onValue} duration={duration} /> : duration;
  }
  const hint = spec.hint?.();
  const common = {
    id,
    'aria-invalid': props.invalid ? true : undefined,
    'aria-describedby': hint ? `${id}-hint` : undefined,
  };
  let input;
  if (spec.kind === 'message') {
    input = <MessageText {...common} value={(value as string) ?? ''} onValue={onValue} variables={props.variables} />;
  } else if (spec.kind === 'select') {
    input = (
      <select {...common} value={(value as string) ?? ''} onChange={(e) => onValue(e.currentTarget.value)}>
        <option value="">{t('automation:nodes.default')}</option>
        {Object.entries(spec.options!()).map(([option, words]) => (
          <option key={option} value={option}>
            {words}
          </option>
        ))}
      </select>
    );
  } else if (spec.kind === 'number') {
    input = (
      <input
        {...common}
        type="number"
        value={typeof value === 'number' ? String(value) : ''}
        onInput={(e) => onValue(e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value))}
      />
    );
  } else {
    input = <input {...common} value={(value as string) ?? ''} onInput={(e) => onValue(e.currentTarget.value)} />;
  }
  return (
    <div class="field">
      <label for={id}>{spec.label()}</label>
      {input}
      {hint && (
        <small class="hint" id={`${id}-hint`}>
          {hint}
        </small>
      )}
    </div>
  );
}

/**
 * A message's text, and a pick-list of the placeholders it may hold: the chosen one goes in where the
 * cursor was (at the end when the text was never focused).
 */
function MessageText(props: {
  id: string;
  value: string;
  onValue: (value: string) => void;
  variables: string[];
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}) {
  const { value, onValue, variables, ...rest } = props;
  const area = useRef<HTMLTextAreaElement>(null);
  const insert = (variable: string) => {
    const at = area.current?.selectionStart ?? value.length;
    const end = area.current?.selectionEnd ?? value.length;
    onValue(value.slice(0, at) + variable + value.slice(end));
    area.current?.focus();
  };
  return (
    <>
      <textarea {...rest} ref={area} value={value} onInput={(e) => onValue(e.currentTarget.value)} />
      <select
        class="insert-variable"
        aria-label={t('automation:builder.insertVariable')}
        value=""
        onChange={(e) => {
          if (e.currentTarget.value) insert(e.currentTarget.value);
          e.currentTarget.value = '';
        }}
      >
        <option value="">{t('automation:builder.insertVariable')}</option>
        {variables.map((variable) => (
          <option key={variable} value={variable}>
            {variable}
          </option>
        ))}
      </select>
    </>
  );
}

/** A node's timeout as a number and a unit; the draft is kept so the unit does not jump while typing. */
function NodeDuration(props: {
  legend: string;
  value: unknown;
  onValue: (iso: string | undefined) => void;
  invalid: boolean;
}) {
  const [draft, setDraft] = useState(() =>
    parseDuration(typeof props.value === 'string' ? props.value : undefined, { amount: '', unit: 'D' }),
  );
  return (
    <DurationField
      legend={props.legend}
      value={draft}
      invalid={props.invalid}
      min={1}
      onChange={(next) => {
        setDraft(next);
        props.onValue(formatDuration(next));
      }}
    />
  );
}

/**
 * A wait's time limit or none: "No time limit" leaves `timeout` out; unticked, the wait gets the limit it
 * had (a day when it never had one).
 */
function TimeLimit(props: { value: unknown; onValue: (iso: string | undefined) => void; duration: ComponentChildren }) {
  const last = useRef(typeof props.value === 'string' ? props.value : DEFAULT_WAIT);
  if (typeof props.value === 'string') last.current = props.value;
  const none = props.value === undefined;
  return (
    <>
      <div class="field checkbox">
        <label>
          <input
            type="checkbox"
            checked={none}
            onChange={(e) => props.onValue(e.currentTarget.checked ? undefined : last.current)}
          />{' '}
          {t('automation:builder.noTimeLimit')}
        </label>
      </div>
      {!none && props.duration}
    </>
  );
}

/** How long a new wait lasts until the person says otherwise. */
export const DEFAULT_WAIT = 'P1D';

/** The nodes an exit may go to, as the pick-lists show them. */
export interface NodeTarget {
  id: string;
  label: string;
}

/** Where an exit goes: one of the flow's nodes, by its title (never a typed id). */
export function TargetSelect(props: {
  id: string;
  value: string;
  targets: NodeTarget[];
  onValue: (id: string) => void;
  'aria-invalid'?: boolean;
  /** The open choice's words. */
  empty: string;
}) {
  const { value, targets, onValue, empty, ...rest } = props;
  const known = value === '' || targets.some((target) => target.id === value);
  return (
    <select {...rest} value={value} onChange={(e) => onValue(e.currentTarget.value)}>
      <option value="">{empty}</option>
      {!known && <option value={value}>{t('automation:builder.missingNode')}</option>}
      {targets.map((target) => (
        <option key={target.id} value={target.id}>
          {target.label}
        </option>
      ))}
    </select>
  );
}

export function PlainField(props: {
  label: string;
  value: string;
  onValue: (v: string) => void;
  maxLength?: number;
  invalid?: boolean;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        value={props.value}
        maxLength={props.maxLength}
        aria-invalid={props.invalid ? true : undefined}
        onInput={(e) => props.onValue(e.currentTarget.value)}
      />
    </div>
  );
}

export function PlainSelect(props: {
  label: string;
  value: string;
  options: Record<string, string>;
  onValue: (v: string) => void;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select id={id} value={props.value} onChange={(e) => props.onValue(e.currentTarget.value)}>
        {Object.entries(props.options).map(([value, words]) => (
          <option key={value} value={value}>
            {words}
          </option>
        ))}
      </select>
    </div>
  );
}
