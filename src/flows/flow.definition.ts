import {
  Type,
  type SchemaOptions,
  type Static,
  type TLiteral,
  type TProperties,
  type TSchema,
} from '@sinclair/typebox';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import { durationMs } from '../automation/schedule-time.js';
import { HeaderMediaUrl, TemplateVariables } from '../messages/index.js';
import type { FieldError } from '../shared/errors.js';
import { flowProblems } from './flow.problems.js';

// Patterns rather than `format`s: TypeBox's checker knows no formats unless registered, and ajv
// accepts the same patterns, so both validators agree.
const NODE_ID_PATTERN = '^[A-Za-z0-9_-]+$';
const ATTRIBUTE_PATTERN = '^[A-Za-z0-9_]+$';
const NOT_BLANK = '\\S';
const UUID_PATTERN = '^[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$';
const URL_PATTERN = '^https?://[^\\s/?#]+\\S*$';
/**
 * ISO 8601 durations of weeks, days, hours, minutes and seconds, greater than zero. Months and years
 * are refused: their length varies. The lookaheads ask for at least one designator and a non-zero digit.
 */
const DURATION_PATTERN =
  '^P(?=\\d|T\\d)(?=.*[1-9])(?:(\\d+)W)?(?:(\\d+)D)?(?:T(?=\\d)(?:(\\d+)H)?(?:(\\d+)M)?(?:(\\d+(?:\\.\\d+)?)S)?)?$';
const DURATION = new RegExp(DURATION_PATTERN);

/** Field-level messages for the patterns above, instead of quoting the regular expression. */
const PATTERN_MESSAGES: Record<string, string> = {
  [NODE_ID_PATTERN]: 'must contain only letters, digits, _ and -',
  [ATTRIBUTE_PATTERN]: 'must contain only letters, digits and _',
  [NOT_BLANK]: 'must not be blank',
  [UUID_PATTERN]: 'must be a UUID',
  [URL_PATTERN]: 'must be an http:// or https:// URL',
  [DURATION_PATTERN]:
    'must be an ISO 8601 duration greater than zero, such as PT30M, PT1H, P1D or P2W (no months or years)',
};

// Optional fields name what their absence means in words, not with JSON Schema's `default`: a default is
// an annotation the definition never gets filled in with, and generated clients would make such fields
// required.
const NodeRef = (description: string) =>
  Type.String({ minLength: 1, maxLength: 64, pattern: NODE_ID_PATTERN, description });
const Next = Type.Optional(NodeRef('The node to go to next; without it the flow ends after this node'));
const Text = (maxLength: number) =>
  Type.String({
    minLength: 1,
    maxLength,
    description:
      'Message text; may contain {{...}} placeholders such as {{contact.name}}, with a fallback for an empty value: {{contact.first_name | "there"}}',
  });
const Attribute = (description: string) =>
  Type.String({ minLength: 1, maxLength: 64, pattern: ATTRIBUTE_PATTERN, description });
const Timeout = (description: string) =>
  Type.String({
    maxLength: 64,
    pattern: DURATION_PATTERN,
    description: `${description}, as an ISO 8601 duration: PT30M, PT1H, P1D, P2W (no months or years)`,
  });
const OnTimeout = Type.Optional(
  NodeRef('The node to go to when no reply comes in time; without it the flow ends on timeout'),
);
/** A field of a WhatsApp Flow's answer: the `name` of one of its components in the Flow JSON. */
const AnswerField = (description: string) =>
  Type.String({ minLength: 1, maxLength: 80, pattern: NODE_ID_PATTERN, description });
const TagName = Type.String({ minLength: 1, maxLength: 64, pattern: NOT_BLANK, description: 'A tag name' });
const literals = <T extends string>(values: readonly T[], options: SchemaOptions) =>
  Type.Union<TLiteral<T>[]>(
    values.map((v) => Type.Literal(v)),
    options,
  );

/** One node type: its `id`, its `type` literal and its own fields, nothing else. */
const node = <K extends string, P extends TProperties>(type: K, description: string, properties: P) =>
  Type.Object(
    {
      id: Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: NODE_ID_PATTERN,
        description: 'Unique within the flow; other nodes refer to it',
      }),
      type: Type.Literal(type, { description: `The node's kind: ${type}` }),
      title: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description:
            'What people call the node, in any language (the builder shows it on the card); without it the id is its name',
        }),
      ),
      ...properties,
    },
    { title: type, description, additionalProperties: false },
  );

const condition = <P extends TProperties>(description: string, properties: P) =>
  Type.Object(properties, { description, additionalProperties: false });

/** What a `branch` node tests; exactly one form. Replies are the contact's latest inbound message. */
export const FlowConditionSchema = Type.Union(
  [
    condition('The reply text equals this, ignoring case and surrounding spaces', {
      reply_equals: Type.String({ minLength: 1, maxLength: 1024, description: 'The text the reply must be' }),
    }),
    condition('The reply text contains this, ignoring case', {
      reply_contains: Type.String({ minLength: 1, maxLength: 1024, description: 'The text the reply must contain' }),
    }),
    condition('The reply is a tap on the button or list row with this id', {
      button_id: Type.String({
        minLength: 1,
        maxLength: 256,
        description: 'The id of a button or list row a send_buttons or send_list node offered',
      }),
    }),
    condition('The contact has this tag (tags compare case-insensitively)', { has_tag: TagName }),
    condition('The contact attribute equals this value', {
      attribute: Attribute('A contact custom attribute'),
      equals: Type.String({ maxLength: 4096, description: 'The value it must have (compared as text)' }),
    }),
    condition('The contact attribute is set (true) or not set (false)', {
      attribute: Attribute('A contact custom attribute'),
      exists: Type.Boolean({ description: 'true: the attribute must be set; false: it must not be' }),
    }),
    condition(
      'A field of the latest WhatsApp Flow answer in this run equals this value (a field of several choices: one of them does)',
      {
        answer_field: AnswerField('A field of the answer, as the Flow names it'),
        equals: Type.String({ maxLength: 4096, description: 'The value the field must have (compared as text)' }),
      },
    ),
  ],
  {
    description:
      'A test on the latest reply, the latest WhatsApp Flow answer or the contact; exactly one of these forms',
  },
);
export type FlowCondition = Static<typeof FlowConditionSchema>;

export const FlowNodeSchema = Type.Union(
  [
    node('send_text', 'Sends a text message', { text: Text(4096), next: Next }),
    node('send_template', 'Sends an approved template (needed outside the 24-hour customer service window)', {
      template_id: Type.String({ pattern: UUID_PATTERN, description: 'The template to send' }),
      language: Type.Optional(
        Type.String({ minLength: 2, maxLength: 15, description: 'The translation to send, such as en_US' }),
      ),
      variables: Type.Optional(
        TemplateVariables(
          Type.String(),
          'Keyed by the ids `/api/v1/dropdowns/template-variables` lists (`{"1": …, "button_0_1": …}`), or the body placeholder values {{1}}, {{2}}, … in order; values may contain {{...}} placeholders',
        ),
      ),
      header_media_url: Type.Optional(HeaderMediaUrl),
      next: Next,
    }),
    node('send_buttons', 'Sends a message with up to 3 reply buttons', {
      text: Text(1024),
      buttons: Type.Array(
        Type.Object(
          {
            id: Type.String({
              minLength: 1,
              maxLength: 256,
              description: 'Unique within the node; a branch tests it with button_id',
            }),
            title: Type.String({ minLength: 1, maxLength: 20, description: 'The button label' }),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 3, description: 'The reply buttons, in order' },
      ),
      next: Next,
    }),
    node('send_list', 'Sends a list message: a button that opens up to 10 rows in sections', {
      text: Text(4096),
      button: Type.String({ minLength: 1, maxLength: 20, description: 'The label of the button that opens the list' }),
      sections: Type.Array(
        Type.Object(
          {
            title: Type.String({ minLength: 1, maxLength: 24, description: 'The section heading' }),
            rows: Type.Array(
              Type.Object(
                {
                  id: Type.String({
                    minLength: 1,
                    maxLength: 200,
                    description: 'Unique within the node; a branch tests it with button_id',
                  }),
                  title: Type.String({ minLength: 1, maxLength: 24, description: 'The row label' }),
                  description: Type.Optional(
                    Type.String({ maxLength: 72, description: 'A second line under the label' }),
                  ),
                },
                { additionalProperties: false },
              ),
              { minItems: 1, maxItems: 10, description: 'The choices of the section' },
            ),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 10, description: 'At most 10 rows in total across the sections' },
      ),
      next: Next,
    }),
    node('ask', 'Asks a question, waits for the reply and saves it as a contact attribute', {
      text: Text(4096),
      attribute: Attribute('The contact custom attribute that receives the reply'),
      validate: Type.Optional(
        literals(['any', 'email', 'phone', 'number'] as const, {
          description: 'What a reply must be to be accepted; any when absent',
        }),
      ),
      timeout: Timeout('How long to wait for a reply'),
      retries: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: 5,
          description: 'How many times to ask again after a reply that fails validate; 0 when absent',
        }),
      ),
      retry_text: Type.Optional(Text(4096)),
      next: NodeRef('The node to go to once the reply is saved'),
      on_timeout: OnTimeout,
    }),
    node(
      'wait_for_reply',
      'Waits for the next inbound message; a following branch can test it. Without `timeout` it waits until a reply comes or the run is stopped',
      {
        timeout: Type.Optional(
          Timeout('How long to wait for a reply before following on_timeout; without it, no limit'),
        ),
        next: Next,
        on_timeout: OnTimeout,
      },
    ),
    node(
      'send_whatsapp_flow',
      'Sends a published WhatsApp Flow (Meta’s form) and waits for its answer. The answer’s fields are {{answer.FIELD}} in later messages, and a branch tests them with answer_field. Needs the 24-hour window, as every interactive message',
      {
        whatsapp_flow_id: Type.String({
          pattern: UUID_PATTERN,
          description: 'The WhatsApp Flow to send (list-whatsapp-flows); it must be PUBLISHED when the flow is',
        }),
        text: Text(1024),
        header: Type.Optional(
          Type.String({ minLength: 1, maxLength: 60, description: 'A bold first line; may contain {{...}}' }),
        ),
        footer: Type.Optional(
          Type.String({ minLength: 1, maxLength: 60, description: 'A grey last line; may contain {{...}}' }),
        ),
        cta: Type.String({
          minLength: 1,
          maxLength: 30,
          description: 'The button that opens the Flow, e.g. "Book a table"',
        }),
        screen: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 200,
            description: 'The screen the Flow opens on; the first screen of its Flow JSON when absent',
          }),
        ),
        save_answers: Type.Optional(
          Type.Array(
            Type.Object(
              {
                field: AnswerField('A field of the answer'),
                attribute: Attribute('The contact custom attribute that receives it'),
              },
              { additionalProperties: false },
            ),
            { maxItems: 20, description: 'Answer fields kept on the contact, each as a custom attribute' },
          ),
        ),
        timeout: Type.Optional(
          Timeout('How long to wait for the answer before following on_timeout; without it, no limit'),
        ),
        next: Next,
        on_timeout: OnTimeout,
      },
    ),
    node('branch', 'Goes to the first branch whose condition holds, else to default', {
      branches: Type.Array(
        Type.Object({ when: FlowConditionSchema, next: NodeRef('The node to go to') }, { additionalProperties: false }),
        { minItems: 1, maxItems: 20, description: 'Tested in order' },
      ),
      default: NodeRef('The node to go to when no branch matches'),
    }),
    node('add_tag', 'Tags the contact (the tag is created on first use)', { tag: TagName, next: Next }),
    node('remove_tag', 'Removes a tag from the contact', { tag: TagName, next: Next }),
    node('set_attribute', 'Sets a contact custom attribute', {
      attribute: Attribute('The contact custom attribute to set'),
      value: Type.String({ maxLength: 4096, description: 'May contain {{...}} placeholders' }),
      next: Next,
    }),
    node('webhook', 'Calls an external URL', {
      url: Type.String({
        maxLength: 2048,
        pattern: URL_PATTERN,
        description: 'The http:// or https:// URL to call (private addresses are refused)',
      }),
      method: Type.Optional(literals(['POST', 'GET'] as const, { description: 'POST when absent' })),
      timeout_ms: Type.Optional(
        Type.Integer({
          minimum: 100,
          maximum: 30000,
          description: 'How long to wait for the answer; 5000 when absent',
        }),
      ),
      save_as: Type.Optional(Attribute('The contact custom attribute that receives the response')),
      next: Next,
      on_error: Type.Optional(
        NodeRef('The node to go to when the call fails or times out; without it the flow ends on error'),
      ),
    }),
    node('handoff', 'Hands the conversation to a person; the flow ends', {
      note: Type.Optional(Type.String({ maxLength: 500, description: 'Shown to the agent who takes over' })),
    }),
    node(
      'ai_assistant',
      'Hands the conversation to the AI assistant (get-assistant-settings): it answers the customer from the knowledge until it hands over to a person or the conversation is closed; the flow ends. With the assistant switched off, the conversation goes to a person instead',
      {},
    ),
    node('end', 'Ends the flow', {}),
  ],
  { description: 'One step of a flow, by its type' },
);
export type FlowNode = Static<typeof FlowNodeSchema>;

/** What an ask node's absent `validate` and `retries` mean, for the engine and for get-flow alike. */
export const ASK_DEFAULTS = { validate: 'any', retries: 0 } as const;
/** What a webhook node's absent `method` and `timeout_ms` mean, for the engine and for get-flow alike. */
export const WEBHOOK_DEFAULTS = { method: 'POST', timeout_ms: 5000 } as const;

/**
 * A node as get-flow has always shown it: the optional fields whose absence has a stated meaning filled
 * in with it (they were JSON Schema defaults the answer's serializer wrote until 0149).
 */
export function withStatedDefaults(node: FlowNode): FlowNode {
  if (node.type === 'ask') return { ...ASK_DEFAULTS, ...node };
  if (node.type === 'webhook') return { ...WEBHOOK_DEFAULTS, ...node };
  return node;
}

export const FlowDefinitionSchema = Type.Object(
  {
    start: NodeRef('The first node'),
    keywords: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64, pattern: NOT_BLANK }), {
        maxItems: 20,
        description: 'An inbound text equal to one of these (ignoring case) starts the flow',
      }),
    ),
    nodes: Type.Array(FlowNodeSchema, {
      minItems: 1,
      maxItems: 200,
      description: 'Every node of the flow, each with a unique id; edges name the ids',
    }),
  },
  {
    description: 'A chatbot flow: a graph of nodes a contact walks through, from start along next and the other edges',
    additionalProperties: false,
  },
);
export type FlowDefinition = Static<typeof FlowDefinitionSchema>;

const WAITING_TYPES: ReadonlySet<FlowNode['type']> = new Set(['ask', 'wait_for_reply', 'send_whatsapp_flow']);
/** Milliseconds in a flow timeout: a duration (see durationMs) greater than zero; throws otherwise. */
export function parseDuration(iso: string): number {
  if (!DURATION.test(iso)) throw new RangeError(`"${iso}" is not an ISO 8601 duration greater than zero`);
  return durationMs(iso);
}

/**
 * Every problem with a flow definition, each at its JSON Pointer path: first the schema, then (on a
 * well-formed definition only, since they read its fields) the graph rules.
 */
export function flowDefinitionProblems(definition: unknown): FieldError[] {
  const problems = schemaProblems(FlowDefinitionSchema, definition, '');
  return problems.length > 0 ? problems : graphProblems(definition as FlowDefinition);
}

// ---- Schema problems ------------------------------------------------------------------------------

/** One problem per path (TypeBox reports a missing property twice: required, then type); unions explained. */
function schemaProblems(schema: TSchema, value: unknown, prefix: string, owner?: string): FieldError[] {
  const byPath = new Map<string, string>();
  for (const error of Value.Errors(schema, value)) {
    const found =
      error.type === ValueErrorType.Union
        ? unionProblems(error, prefix)
        : [{ field: prefix + error.path, message: describe(error, isOwnField(error.path) ? owner : undefined) }];
    for (const { field, message } of found) if (!byPath.has(field || '/')) byPath.set(field || '/', message);
  }
  return [...byPath].map(([field, message]) => ({ field, message }));
}

type Describe = (schema: TSchema) => string;

/** Messages that say what the field must be, by TypeBox error type; others keep TypeBox's message. */
const MESSAGES: Partial<Record<ValueErrorType, Describe>> = {
  [ValueErrorType.Literal]: (schema) => `must be ${JSON.stringify(schema.const)}`,
  [ValueErrorType.StringMaxLength]: (schema) => `must be at most ${String(schema.maxLength)} characters`,
  [ValueErrorType.StringMinLength]: (schema) =>
    schema.minLength === 1 ? 'must not be empty' : `must be at least ${String(schema.minLength)} characters`,
  [ValueErrorType.StringPattern]: (schema) =>
    PATTERN_MESSAGES[String(schema.pattern)] ?? `must match the pattern ${String(schema.pattern)}`,
  [ValueErrorType.ArrayMaxItems]: (schema) => `must have at most ${String(schema.maxItems)} items`,
  [ValueErrorType.ArrayMinItems]: (schema) =>
    `must have at least ${String(schema.minItems)} item${schema.minItems === 1 ? '' : 's'}`,
  [ValueErrorType.IntegerMinimum]: (schema) => `must be at least ${String(schema.minimum)}`,
  [ValueErrorType.IntegerMaximum]: (schema) => `must be at most ${String(schema.maximum)}`,
  [ValueErrorType.Integer]: () => 'must be a whole number',
  [ValueErrorType.String]: () => 'must be a string',
  [ValueErrorType.Boolean]: () => 'must be true or false',
  [ValueErrorType.Object]: () => 'must be an object',
  [ValueErrorType.Array]: () => 'must be an array',
};

/** `owner` ("a send_text node") says whose field is missing or foreign: which fields belong depends on the type. */
function describe(error: ValueError, owner?: string): string {
  if (error.type === ValueErrorType.ObjectRequiredProperty) return owner ? `is required for ${owner}` : 'is required';
  if (error.type === ValueErrorType.ObjectAdditionalProperties) {
    return owner ? `is not a property of ${owner}` : 'is not a known property';
  }
  return MESSAGES[error.type]?.(error.schema) ?? error.message;
}

const isOwnField = (path: string) => /^\/[^/]*$/.test(path);

/** TypeBox only says "Expected union value"; pick the variant the value meant and report against it. */
function unionProblems(error: ValueError, prefix: string): FieldError[] {
  const field = prefix + error.path;
  const variants = (error.schema.anyOf ?? []) as TSchema[];
  const literalValues = variants.map(literalOf);
  if (literalValues.every(isString)) return [{ field, message: `must be one of ${literalValues.join(', ')}` }];
  if (!isRecord(error.value)) return [{ field, message: 'must be an object' }];
  const types = variants.map((v) => literalOf(((v.properties ?? {}) as TProperties).type));
  if (types.every(isString)) return nodeProblems(variants, types, error.value, field);
  return shapeProblems(variants, error.value, field);
}

/** Nodes are told apart by `type`, so the messages can be about that type's own fields. */
function nodeProblems(variants: TSchema[], types: string[], value: Record<string, unknown>, field: string) {
  const list = types.join(', ');
  if (value.type === undefined) return [{ field: `${field}/type`, message: `is required: one of ${list}` }];
  const index = types.findIndex((t) => t === value.type);
  const variant = variants[index];
  if (!variant) {
    return [{ field: `${field}/type`, message: `unknown node type ${JSON.stringify(value.type)} (one of ${list})` }];
  }
  return schemaProblems(variant, value, field, `a ${types[index]} node`);
}

/** Other object unions (conditions) are told apart by their set of keys. */
function shapeProblems(variants: TSchema[], value: Record<string, unknown>, field: string): FieldError[] {
  const keys = Object.keys(value).sort().join();
  const variant = variants.find((v) => propertyNames(v).sort().join() === keys);
  if (variant) return schemaProblems(variant, value, field);
  const shapes = variants.map((v) => `{${propertyNames(v).join(', ')}}`);
  return [{ field, message: `must be exactly one of ${shapes.join(', ')}` }];
}

function propertyNames(schema: TSchema): string[] {
  return Object.keys((schema.properties ?? {}) as TProperties);
}

function literalOf(schema: TSchema | undefined): string | undefined {
  const value = schema?.const as unknown;
  return typeof value === 'string' ? value : undefined;
}

const isString = (value: unknown): value is string => typeof value === 'string';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---- Graph problems -------------------------------------------------------------------------------

/** A node's edges resolved to node indexes; an edge to an unknown node is left out (reported apart). */
interface Graph {
  nodes: FlowNode[];
  /** Index of each id's first node; later duplicates are reported and otherwise ignored. */
  indexById: Map<string, number>;
  targets: number[][];
}

function graphProblems(flow: FlowDefinition): FieldError[] {
  const indexById = new Map<string, number>();
  flow.nodes.forEach((n, i) => indexById.set(n.id, indexById.get(n.id) ?? i));
  const targets = flow.nodes.map((n, i) => resolved(edgesOf(n, i), indexById));
  const graph = { nodes: flow.nodes, indexById, targets };
  return [
    ...duplicates(
      flow.nodes.map((n, i) => ({ value: n.id, field: `/nodes/${i}/id`, at: `/nodes/${i}` })),
      'duplicate_node',
    ),
    ...keywordProblems(flow.keywords ?? []),
    ...flow.nodes.flatMap(choiceProblems),
    ...flow.nodes.flatMap(timeoutProblems),
    ...edgeProblems(flow, indexById),
    ...unreachable(flow.start, graph),
    ...loopsWithoutWait(graph),
  ];
}

/** One way out of a node: `exit` is the path of its field under the node (`next`, `branches/2/next`, `on_timeout`…). */
export interface FlowExit {
  exit: string;
  target: string;
}

/** The exit of a branch node's `j`th branch. */
export const branchExit = (j: number) => `branches/${j}/next`;

/** The node's exits that name a node, in document order. A run records the one it takes (flow.engine.ts). */
export function exitsOf(n: FlowNode): FlowExit[] {
  const exits: FlowExit[] = [];
  const add = (exit: string, target: string | undefined) => {
    if (target !== undefined) exits.push({ exit, target });
  };
  if ('next' in n) add('next', n.next);
  if (n.type === 'branch') {
    n.branches.forEach((b, j) => add(branchExit(j), b.next));
    add('default', n.default);
  }
  if ('on_timeout' in n) add('on_timeout', n.on_timeout);
  if ('on_error' in n) add('on_error', n.on_error);
  return exits;
}

interface Edge {
  field: string;
  target: string;
}

function edgesOf(n: FlowNode, i: number): Edge[] {
  return exitsOf(n).map(({ exit, target }) => ({ field: `/nodes/${i}/${exit}`, target }));
}

function resolved(edges: Edge[], indexById: Map<string, number>): number[] {
  return edges.flatMap((e) => {
    const index = indexById.get(e.target);
    return index === undefined ? [] : [index];
  });
}

interface Occurrence {
  value: string;
  field: string;
  /** Where the first occurrence is named in the message. */
  at: string;
}

/** Each repeat of an earlier value, at its own path, naming where the value first appeared (`code`: of what). */
function duplicates(
  occurrences: Occurrence[],
  code: 'duplicate_node' | 'duplicate_keyword' | 'duplicate_button' | 'duplicate_row',
  key = (value: string) => value,
): FieldError[] {
  const first = new Map<string, string>();
  return occurrences.flatMap(({ value, field, at }) => {
    const seen = first.get(key(value));
    if (seen === undefined) first.set(key(value), at);
    return seen === undefined ? [] : [flowProblems.problem(field, code, { value, first: seen })];
  });
}

/** Keywords match inbound text ignoring case and spaces, so "Menu" repeats "menu". */
function keywordProblems(keywords: string[]): FieldError[] {
  const occurrences = keywords.map((value, i) => ({ value, field: `/keywords/${i}`, at: `/keywords/${i}` }));
  return duplicates(occurrences, 'duplicate_keyword', (k) => k.trim().toLowerCase());
}

/** A tap reports only the button or row id, so an id used twice in one message is ambiguous. */
function choiceProblems(n: FlowNode, i: number): FieldError[] {
  if (n.type === 'send_buttons') {
    const at = (j: number) => `/nodes/${i}/buttons/${j}`;
    return duplicates(
      n.buttons.map((b, j) => ({ value: b.id, field: `${at(j)}/id`, at: at(j) })),
      'duplicate_button',
    );
  }
  if (n.type !== 'send_list') return [];
  const rows = n.sections.flatMap((s, j) =>
    s.rows.map((r, k) => ({ value: r.id, at: `/nodes/${i}/sections/${j}/rows/${k}` })),
  );
  const problems = duplicates(
    rows.map((r) => ({ ...r, field: `${r.at}/id` })),
    'duplicate_row',
  );
  // WhatsApp refuses a list with more than 10 rows across all its sections.
  if (rows.length > 10)
    problems.push(flowProblems.problem(`/nodes/${i}/sections`, 'too_many_rows', { rows: rows.length }));
  return problems;
}

/** The pattern admits durations too long to count in milliseconds; the runtime could not schedule those. */
function timeoutProblems(n: FlowNode, i: number): FieldError[] {
  if (!('timeout' in n) || n.timeout === undefined) return [];
  const field = `/nodes/${i}/timeout`;
  if (!DURATION.test(n.timeout)) return [flowProblems.problem(field, 'timeout_not_duration', { timeout: n.timeout })];
  try {
    durationMs(n.timeout);
    return [];
  } catch {
    return [flowProblems.problem(field, 'timeout_too_long', { timeout: n.timeout })];
  }
}

function edgeProblems(flow: FlowDefinition, indexById: Map<string, number>): FieldError[] {
  const start = indexById.has(flow.start)
    ? []
    : [flowProblems.problem('/start', 'unknown_start', { node: flow.start })];
  const dangling = flow.nodes
    .flatMap(edgesOf)
    .filter((e) => !indexById.has(e.target))
    .map((e) => flowProblems.problem(e.field, 'unknown_target', { node: e.target }));
  return [...start, ...dangling];
}

/** Nodes no path from start reaches, along every kind of edge; skipped when start itself is unknown. */
function unreachable(start: string, graph: Graph): FieldError[] {
  const from = graph.indexById.get(start);
  if (from === undefined) return [];
  const reached = new Set([from]);
  for (const i of reached) for (const t of graph.targets[i] ?? []) reached.add(t);
  return graph.nodes.flatMap((n, i) =>
    reached.has(i) || graph.indexById.get(n.id) !== i
      ? []
      : [flowProblems.problem(`/nodes/${i}`, 'unreachable', { node: n.id, start })],
  );
}

/**
 * A cycle with no waiting node would run forever without the contact doing anything. Such a cycle
 * exists exactly when the graph without the waiting nodes has one: a strongly connected component of
 * two or more nodes, or a node with an edge to itself. Each is reported once, at its first node in the document.
 */
function loopsWithoutWait({ nodes, targets }: Graph): FieldError[] {
  const waits = (i: number) => WAITING_TYPES.has(nodes[i]!.type);
  const moving = targets.map((ts, i) => (waits(i) ? [] : ts.filter((t) => !waits(t))));
  const components = stronglyConnected(moving).map((c) => c.sort((a, b) => a - b));
  // Tarjan finds components in reverse topological order; report in document order instead.
  components.sort((a, b) => a[0]! - b[0]!);
  return components.flatMap((component) => {
    const first = component[0]!;
    if (component.length === 1 && !moving[first]!.includes(first)) return [];
    const ids = cycleThrough(first, new Set(component), moving).map((i) => nodes[i]!.id);
    return [flowProblems.problem(`/nodes/${first}`, 'loop_without_wait', { path: ids.join(' -> ') })];
  });
}

/** Tarjan's algorithm; recursion is bounded by the 200-node limit. */
function stronglyConnected(targets: number[][]): number[][] {
  const order = new Map<number, number>();
  const low = new Map<number, number>();
  const stack: number[] = [];
  const components: number[][] = [];
  const visit = (v: number) => {
    order.set(v, order.size);
    low.set(v, order.get(v)!);
    stack.push(v);
    for (const t of targets[v] ?? []) {
      if (!order.has(t)) visit(t);
      if (stack.includes(t)) low.set(v, Math.min(low.get(v)!, low.get(t)!));
    }
    if (low.get(v) !== order.get(v)) return;
    const component = stack.splice(stack.indexOf(v));
    components.push(component);
  };
  targets.forEach((_, v) => order.has(v) || visit(v));
  return components;
}

/** The shortest cycle from `start` back to itself inside one component (breadth-first), as indexes. */
function cycleThrough(start: number, members: Set<number>, targets: number[][]): number[] {
  const parent = new Map<number, number>();
  const queue = [start];
  for (const v of queue) {
    for (const t of targets[v] ?? []) {
      if (t === start) return [...pathTo(v, parent, start), start];
      if (!members.has(t) || parent.has(t)) continue;
      parent.set(t, v);
      queue.push(t);
    }
  }
  return [start];
}

function pathTo(v: number, parent: Map<number, number>, start: number): number[] {
  const path = [v];
  while (path[0] !== start) path.unshift(parent.get(path[0]!)!);
  return path;
}
