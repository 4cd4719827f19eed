import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import {
  exitsOf,
  FlowDefinitionSchema,
  flowDefinitionProblems,
  parseDuration,
  type FlowDefinition,
  type FlowNode,
} from './flow.definition.js';

/** The documented example; indexes: welcome 0, menu 1, wait 2, route 3, ask_order 4, lookup 5, tag 6, handoff 7, bye 8. */
function example(): FlowDefinition {
  return {
    start: 'welcome',
    keywords: ['menu', 'hi'],
    nodes: [
      { id: 'welcome', type: 'send_text', text: 'Hi {{contact.name}}!', next: 'menu' },
      {
        id: 'menu',
        type: 'send_buttons',
        text: 'What do you need?',
        buttons: [
          { id: 'order', title: 'My order' },
          { id: 'human', title: 'A person' },
        ],
        next: 'wait',
      },
      { id: 'wait', type: 'wait_for_reply', timeout: 'PT1H', next: 'route', on_timeout: 'bye' },
      {
        id: 'route',
        type: 'branch',
        branches: [
          { when: { button_id: 'human' }, next: 'handoff' },
          { when: { reply_contains: 'order' }, next: 'ask_order' },
        ],
        default: 'bye',
      },
      {
        id: 'ask_order',
        type: 'ask',
        text: 'Your order number?',
        attribute: 'order_number',
        validate: 'any',
        timeout: 'PT30M',
        retries: 1,
        retry_text: 'Sorry, again?',
        next: 'lookup',
        on_timeout: 'bye',
      },
      {
        id: 'lookup',
        type: 'webhook',
        url: 'https://example.com/orders',
        timeout_ms: 5000,
        save_as: 'order_status',
        next: 'tag',
        on_error: 'bye',
      },
      { id: 'tag', type: 'add_tag', tag: 'asked-order', next: 'bye' },
      { id: 'handoff', type: 'handoff', note: 'wants a person' },
      { id: 'bye', type: 'end' },
    ],
  };
}

/** A node of the example as a plain record, so a test can break it in ways its type forbids. */
function nodeOf(flow: FlowDefinition, id: string): Record<string, unknown> {
  const found: Record<string, unknown> | undefined = flow.nodes.find((n) => n.id === id);
  assert.ok(found, `no node ${id}`);
  return found;
}

/** a -> m -> r, where r goes back to a by default and ends on "stop". */
function loopFlow(middle: FlowNode): FlowDefinition {
  return {
    start: 'a',
    nodes: [
      { id: 'a', type: 'send_text', text: 'Say stop to stop', next: 'm' },
      middle,
      { id: 'r', type: 'branch', branches: [{ when: { reply_equals: 'stop' }, next: 'done' }], default: 'a' },
      { id: 'done', type: 'end' },
    ],
  };
}

describe('flowDefinitionProblems: schema', () => {
  test('the documented example is valid', () => {
    assert.deepEqual(flowDefinitionProblems(example()), []);
    assert.equal(Value.Check(FlowDefinitionSchema, example()), true);
  });

  test('every node type in its smallest form is valid', () => {
    const flow: FlowDefinition = {
      start: 'a',
      nodes: [
        { id: 'a', type: 'send_template', template_id: '0190a5c2-7b3e-7c4d-8e5f-6a7b8c9d0e1f', next: 'b' },
        {
          id: 'b',
          type: 'send_list',
          text: 'Pick',
          button: 'Options',
          sections: [{ title: 'All', rows: [{ id: 'x', title: 'X', description: 'The x' }] }],
          next: 'c',
        },
        { id: 'c', type: 'remove_tag', tag: 'old', next: 'd' },
        { id: 'd', type: 'set_attribute', attribute: 'seen', value: '{{contact.name}}', next: 'e' },
        { id: 'e', type: 'branch', branches: [{ when: { attribute: 'seen', exists: true }, next: 'f' }], default: 'f' },
        {
          id: 'f',
          type: 'branch',
          branches: [{ when: { attribute: 'seen', equals: 'yes' }, next: 'g' }],
          default: 'g',
        },
        { id: 'g', type: 'branch', branches: [{ when: { has_tag: 'vip' }, next: 'h' }], default: 'h' },
        { id: 'h', type: 'branch', branches: [{ when: { reply_equals: 'yes' }, next: 'i' }], default: 'i' },
        { id: 'i', type: 'webhook', url: 'http://internal.example/hook', method: 'GET', next: 'j' },
        {
          id: 'j',
          type: 'send_whatsapp_flow',
          whatsapp_flow_id: '0190a5c2-7b3e-7c4d-8e5f-6a7b8c9d0e1f',
          text: 'Book here',
          cta: 'Book',
          next: 'k',
        },
        {
          id: 'k',
          type: 'branch',
          branches: [{ when: { answer_field: 'seats', equals: '4' }, next: 'l' }],
          default: 'l',
        },
        { id: 'l', type: 'end' },
      ],
    };
    assert.deepEqual(flowDefinitionProblems(flow), []);
  });

  test('a WhatsApp Flow node: its button’s text is short, answer fields are names without spaces', () => {
    const flow: FlowDefinition = {
      start: 'form',
      nodes: [
        {
          id: 'form',
          type: 'send_whatsapp_flow',
          whatsapp_flow_id: '0190a5c2-7b3e-7c4d-8e5f-6a7b8c9d0e1f',
          text: 'Book here',
          cta: 'A button text longer than thirty characters',
          save_answers: [{ field: 'the day', attribute: 'day' }],
          next: 'seats',
        },
        {
          id: 'seats',
          type: 'branch',
          branches: [{ when: { answer_field: '', equals: '4' }, next: 'end' }],
          default: 'end',
        },
        { id: 'end', type: 'end' },
      ],
    };
    assert.deepEqual(flowDefinitionProblems(flow), [
      { field: '/nodes/0/cta', message: 'must be at most 30 characters' },
      { field: '/nodes/0/save_answers/0/field', message: 'must contain only letters, digits, _ and -' },
      { field: '/nodes/1/branches/0/when/answer_field', message: 'must not be empty' },
    ]);
  });

  test('a definition that is not an object is one problem at the root', () => {
    assert.deepEqual(flowDefinitionProblems(null), [{ field: '/', message: 'must be an object' }]);
  });

  test('a flow needs at least one node', () => {
    assert.deepEqual(flowDefinitionProblems({ start: 'a', nodes: [] }), [
      { field: '/nodes', message: 'must have at least 1 item' },
    ]);
  });

  test('an unknown node type is named at the node type, with the known ones', () => {
    const flow = example();
    nodeOf(flow, 'tag').type = 'send_fax';
    const problems = flowDefinitionProblems(flow);
    assert.equal(problems.length, 1);
    assert.equal(problems[0]?.field, '/nodes/6/type');
    assert.match(problems[0]?.message ?? '', /^unknown node type "send_fax" \(one of send_text, .*wait_for_reply/);
  });

  test('a node without a type says so', () => {
    const flow = example();
    delete nodeOf(flow, 'bye').type;
    assert.deepEqual(
      flowDefinitionProblems(flow).map((p) => p.field),
      ['/nodes/8/type'],
    );
  });

  test("a missing field is named for the node's own type, once", () => {
    const flow = example();
    delete nodeOf(flow, 'welcome').text;
    assert.deepEqual(flowDefinitionProblems(flow), [
      { field: '/nodes/0/text', message: 'is required for a send_text node' },
    ]);
  });

  test("a field of another node type is not one of this type's", () => {
    const flow = example();
    nodeOf(flow, 'welcome').timeout = 'PT1M';
    assert.deepEqual(flowDefinitionProblems(flow), [
      { field: '/nodes/0/timeout', message: 'is not a property of a send_text node' },
    ]);
  });

  test('terminal nodes have no next', () => {
    const flow = example();
    nodeOf(flow, 'handoff').next = 'bye';
    assert.deepEqual(flowDefinitionProblems(flow), [
      { field: '/nodes/7/next', message: 'is not a property of a handoff node' },
    ]);
  });

  test('a condition of no known form lists the forms; one of a known form is checked as that form', () => {
    const flow = example();
    const branches = nodeOf(flow, 'route').branches as { when: unknown }[];
    branches[0]!.when = { button_id: 'human', reply_equals: 'x' };
    branches[1]!.when = { reply_contains: 5 };
    const problems = flowDefinitionProblems(flow);
    assert.equal(problems.length, 2);
    assert.equal(problems[0]?.field, '/nodes/3/branches/0/when');
    assert.match(problems[0]?.message ?? '', /^must be exactly one of \{reply_equals\}, .*\{answer_field, equals\}$/);
    assert.deepEqual(problems[1], { field: '/nodes/3/branches/1/when/reply_contains', message: 'must be a string' });
  });

  test('literal choices are listed', () => {
    const flow = example();
    nodeOf(flow, 'ask_order').validate = 'zip';
    assert.deepEqual(flowDefinitionProblems(flow), [
      { field: '/nodes/4/validate', message: 'must be one of any, email, phone, number' },
    ]);
  });

  test('node ids, timeouts, template ids and URLs are explained rather than quoted as patterns', () => {
    const flow = example();
    nodeOf(flow, 'bye').id = 'b y e';
    nodeOf(flow, 'wait').timeout = 'P1M';
    nodeOf(flow, 'lookup').url = 'ftp://example.com';
    nodeOf(flow, 'ask_order').retries = 6;
    assert.deepEqual(flowDefinitionProblems(flow), [
      {
        field: '/nodes/2/timeout',
        message: 'must be an ISO 8601 duration greater than zero, such as PT30M, PT1H, P1D or P2W (no months or years)',
      },
      { field: '/nodes/4/retries', message: 'must be at most 5' },
      { field: '/nodes/5/url', message: 'must be an http:// or https:// URL' },
      { field: '/nodes/8/id', message: 'must contain only letters, digits, _ and -' },
    ]);
  });

  test('buttons are limited to 3 with titles of 20 characters', () => {
    const flow = example();
    const buttons = nodeOf(flow, 'menu').buttons as { id: string; title: string }[];
    buttons.push({ id: 'a', title: 'A' }, { id: 'b', title: 'B'.repeat(21) });
    assert.deepEqual(flowDefinitionProblems(flow), [
      { field: '/nodes/1/buttons', message: 'must have at most 3 items' },
      { field: '/nodes/1/buttons/3/title', message: 'must be at most 20 characters' },
    ]);
  });
});

describe('flowDefinitionProblems: graph', () => {
  test('a duplicate node id is reported at the later node, naming the first', () => {
    const flow = example();
    flow.nodes.push({ id: 'welcome', type: 'end' });
    assert.deepEqual(flowDefinitionProblems(flow), [
      {
        field: '/nodes/9/id',
        message: 'duplicates node "welcome" (also /nodes/0)',
        code: 'flows.duplicate_node',
        params: { value: 'welcome', first: '/nodes/0' },
      },
    ]);
  });

  test('start must name a node', () => {
    const flow = example();
    flow.start = 'nope';
    assert.deepEqual(flowDefinitionProblems(flow), [
      { field: '/start', message: 'names unknown node "nope"', code: 'flows.unknown_start', params: { node: 'nope' } },
    ]);
  });

  const edges: [string, (flow: FlowDefinition) => void, string][] = [
    ['next', (flow) => (nodeOf(flow, 'tag').next = 'nowhere'), '/nodes/6/next'],
    ['on_timeout of a wait', (flow) => (nodeOf(flow, 'wait').on_timeout = 'nowhere'), '/nodes/2/on_timeout'],
    ['on_timeout of an ask', (flow) => (nodeOf(flow, 'ask_order').on_timeout = 'nowhere'), '/nodes/4/on_timeout'],
    ['on_error', (flow) => (nodeOf(flow, 'lookup').on_error = 'nowhere'), '/nodes/5/on_error'],
    ['default', (flow) => (nodeOf(flow, 'route').default = 'nowhere'), '/nodes/3/default'],
    [
      'a branch',
      (flow) => (nodeOf(flow, 'route').branches as unknown[]).push({ when: { has_tag: 'vip' }, next: 'nowhere' }),
      '/nodes/3/branches/2/next',
    ],
  ];
  for (const [edge, breakIt, field] of edges) {
    test(`a dangling ${edge} edge is reported at that edge`, () => {
      const flow = example();
      breakIt(flow);
      assert.deepEqual(flowDefinitionProblems(flow), [
        {
          field,
          message: 'points at unknown node "nowhere"',
          code: 'flows.unknown_target',
          params: { node: 'nowhere' },
        },
      ]);
    });
  }

  test('a node no edge leads to is unreachable', () => {
    const flow = example();
    flow.nodes.push({ id: 'orphan', type: 'send_text', text: 'Never sent', next: 'bye' });
    assert.deepEqual(flowDefinitionProblems(flow), [
      {
        field: '/nodes/9',
        message: 'node "orphan" is unreachable from start "welcome"',
        code: 'flows.unreachable',
        params: { node: 'orphan', start: 'welcome' },
      },
    ]);
  });

  test('everything after an unreachable node is unreachable too', () => {
    const flow = example();
    nodeOf(flow, 'route').branches = [{ when: { button_id: 'human' }, next: 'handoff' }];
    assert.deepEqual(
      flowDefinitionProblems(flow).map((p) => p.message),
      ['ask_order', 'lookup', 'tag'].map((id) => `node "${id}" is unreachable from start "welcome"`),
    );
  });

  test('on_timeout, on_error and default edges make nodes reachable', () => {
    const flow: FlowDefinition = {
      start: 'w',
      nodes: [
        { id: 'w', type: 'wait_for_reply', timeout: 'P1D', on_timeout: 'h' },
        { id: 'h', type: 'webhook', url: 'https://example.com', on_error: 'b' },
        { id: 'b', type: 'branch', branches: [{ when: { reply_equals: 'x' }, next: 'b2' }], default: 'e' },
        { id: 'b2', type: 'end' },
        { id: 'e', type: 'end' },
      ],
    };
    assert.deepEqual(flowDefinitionProblems(flow), []);
  });

  test('a wait_for_reply needs no timeout (it waits until a reply comes); an ask still does', () => {
    const flow = example();
    delete nodeOf(flow, 'wait').timeout;
    assert.deepEqual(flowDefinitionProblems(flow), []);
    delete nodeOf(flow, 'ask_order').timeout;
    assert.deepEqual(flowDefinitionProblems(flow), [
      { field: '/nodes/4/timeout', message: 'is required for a ask node' },
    ]);
  });

  test("exitsOf names each way out of a node as its field's path under the node", () => {
    const route = example().nodes[3]!;
    assert.deepEqual(exitsOf(route), [
      { exit: 'branches/0/next', target: 'handoff' },
      { exit: 'branches/1/next', target: 'ask_order' },
      { exit: 'default', target: 'bye' },
    ]);
    assert.deepEqual(exitsOf(example().nodes[2]!), [
      { exit: 'next', target: 'route' },
      { exit: 'on_timeout', target: 'bye' },
    ]);
  });

  test('a loop through a wait_for_reply is fine', () => {
    assert.deepEqual(
      flowDefinitionProblems(loopFlow({ id: 'm', type: 'wait_for_reply', timeout: 'PT5M', next: 'r' })),
      [],
    );
  });

  test('a loop through a WhatsApp Flow node is fine: it waits for the answer', () => {
    const form: FlowNode = {
      id: 'm',
      type: 'send_whatsapp_flow',
      whatsapp_flow_id: '0190a5c2-7b3e-7c4d-8e5f-6a7b8c9d0e1f',
      text: 'Again?',
      cta: 'Open',
      next: 'r',
    };
    assert.deepEqual(flowDefinitionProblems(loopFlow(form)), []);
  });

  test('a loop through an ask is fine', () => {
    const ask: FlowNode = { id: 'm', type: 'ask', text: 'Well?', attribute: 'answer', timeout: 'PT5M', next: 'r' };
    assert.deepEqual(flowDefinitionProblems(loopFlow(ask)), []);
  });

  test('the same loop without the wait is reported once, with its path', () => {
    assert.deepEqual(flowDefinitionProblems(loopFlow({ id: 'm', type: 'add_tag', tag: 'looping', next: 'r' })), [
      {
        field: '/nodes/0',
        message: 'loop without a wait: a -> m -> r -> a (add a node that waits for a reply or asks a question)',
        code: 'flows.loop_without_wait',
        params: { path: 'a -> m -> r -> a' },
      },
    ]);
  });

  test('a self-loop is a loop', () => {
    const flow: FlowDefinition = { start: 'a', nodes: [{ id: 'a', type: 'add_tag', tag: 'x', next: 'a' }] };
    assert.deepEqual(flowDefinitionProblems(flow), [
      {
        field: '/nodes/0',
        message: 'loop without a wait: a -> a (add a node that waits for a reply or asks a question)',
        code: 'flows.loop_without_wait',
        params: { path: 'a -> a' },
      },
    ]);
  });

  test('a wait elsewhere in the same cycle group does not excuse a cycle that skips it', () => {
    const flow = loopFlow({ id: 'm', type: 'wait_for_reply', timeout: 'PT5M', next: 'r' });
    const r = nodeOf(flow, 'r');
    r.branches = [...(r.branches as unknown[]), { when: { reply_equals: 'again' }, next: 'r' }];
    assert.deepEqual(flowDefinitionProblems(flow), [
      {
        field: '/nodes/2',
        message: 'loop without a wait: r -> r (add a node that waits for a reply or asks a question)',
        code: 'flows.loop_without_wait',
        params: { path: 'r -> r' },
      },
    ]);
  });

  test('separate loops are reported separately', () => {
    const flow: FlowDefinition = {
      start: 'a',
      nodes: [
        { id: 'a', type: 'send_text', text: '1', next: 'b' },
        { id: 'b', type: 'branch', branches: [{ when: { has_tag: 'x' }, next: 'a' }], default: 'c' },
        { id: 'c', type: 'send_text', text: '2', next: 'd' },
        { id: 'd', type: 'send_text', text: '3', next: 'c' },
      ],
    };
    assert.deepEqual(
      flowDefinitionProblems(flow).map((p) => [p.field, p.message]),
      [
        ['/nodes/0', 'loop without a wait: a -> b -> a (add a node that waits for a reply or asks a question)'],
        ['/nodes/2', 'loop without a wait: c -> d -> c (add a node that waits for a reply or asks a question)'],
      ],
    );
  });

  test('button ids are unique within a node', () => {
    const flow = example();
    const buttons = nodeOf(flow, 'menu').buttons as { id: string }[];
    buttons[1]!.id = 'order';
    assert.deepEqual(flowDefinitionProblems(flow), [
      {
        field: '/nodes/1/buttons/1/id',
        message: 'duplicates button "order" (also /nodes/1/buttons/0)',
        code: 'flows.duplicate_button',
        params: { value: 'order', first: '/nodes/1/buttons/0' },
      },
    ]);
  });

  const listFlow = (sections: { title: string; rows: { id: string; title: string }[] }[]): FlowDefinition => ({
    start: 'l',
    nodes: [{ id: 'l', type: 'send_list', text: 'Pick one', button: 'Options', sections }],
  });
  const rows = (ids: string[]) => ids.map((id) => ({ id, title: id }));

  test('row ids are unique across the sections of a list', () => {
    const flow = listFlow([
      { title: 'One', rows: rows(['a', 'b']) },
      { title: 'Two', rows: rows(['c', 'a']) },
    ]);
    assert.deepEqual(flowDefinitionProblems(flow), [
      {
        field: '/nodes/0/sections/1/rows/1/id',
        message: 'duplicates row "a" (also /nodes/0/sections/0/rows/0)',
        code: 'flows.duplicate_row',
        params: { value: 'a', first: '/nodes/0/sections/0/rows/0' },
      },
    ]);
  });

  test('a list has at most 10 rows in total', () => {
    const ten = listFlow([
      { title: 'One', rows: rows(['a', 'b', 'c', 'd', 'e']) },
      { title: 'Two', rows: rows(['f', 'g', 'h', 'i', 'j']) },
    ]);
    assert.deepEqual(flowDefinitionProblems(ten), []);
    const eleven = listFlow([
      { title: 'One', rows: rows(['a', 'b', 'c', 'd', 'e']) },
      { title: 'Two', rows: rows(['f', 'g', 'h', 'i', 'j', 'k']) },
    ]);
    assert.deepEqual(flowDefinitionProblems(eleven), [
      {
        field: '/nodes/0/sections',
        message: 'has 11 rows; at most 10 in total',
        code: 'flows.too_many_rows',
        params: { rows: 11 },
      },
    ]);
  });

  test('keywords are unique ignoring case', () => {
    const flow = example();
    flow.keywords = ['menu', 'hi', 'MENU '];
    assert.deepEqual(flowDefinitionProblems(flow), [
      {
        field: '/keywords/2',
        message: 'duplicates keyword "MENU " (also /keywords/0)',
        code: 'flows.duplicate_keyword',
        params: { value: 'MENU ', first: '/keywords/0' },
      },
    ]);
  });

  test('a timeout too long to count in milliseconds is refused', () => {
    const flow = example();
    nodeOf(flow, 'wait').timeout = 'P99999999999D';
    assert.deepEqual(flowDefinitionProblems(flow), [
      {
        field: '/nodes/2/timeout',
        message: '"P99999999999D" is too long a duration',
        code: 'flows.timeout_too_long',
        params: { timeout: 'P99999999999D' },
      },
    ]);
  });
});

describe('parseDuration', () => {
  test('counts weeks, days, hours, minutes and seconds in milliseconds', () => {
    assert.equal(parseDuration('PT30M'), 1_800_000);
    assert.equal(parseDuration('P1DT2H'), 93_600_000);
    assert.equal(parseDuration('P2W'), 1_209_600_000);
    assert.equal(parseDuration('PT1H30M15S'), 5_415_000);
    assert.equal(parseDuration('PT1.5S'), 1500);
    assert.equal(parseDuration('P1D'), 86_400_000);
  });

  for (const invalid of ['P1M', 'P1Y', '', 'P', 'PT', 'P1DT', 'PT0S', 'P0D', 'pt30m', 'PT30M1H', '30M', 'PT1.5M']) {
    test(`refuses ${JSON.stringify(invalid)}`, () => {
      assert.throws(() => parseDuration(invalid), RangeError);
    });
  }

  test('the schema accepts a timeout exactly when parseDuration does', () => {
    for (const timeout of ['PT30M', 'P1DT2H', 'P2W', 'PT0.5S', 'P1M', 'PT', 'PT0S', 'P1DT']) {
      const flow: FlowDefinition = { start: 'w', nodes: [{ id: 'w', type: 'wait_for_reply', timeout }] };
      const parses = (() => {
        try {
          return parseDuration(timeout) > 0;
        } catch {
          return false;
        }
      })();
      assert.equal(flowDefinitionProblems(flow).length === 0, parses, timeout);
    }
  });
});
