import { useId, useLayoutEffect, useState } from 'preact/hooks';
import { action, v1, type ActionAnswer } from '../../api/client';
import { Link, navigate } from '../../router';
import { t } from '../../i18n/i18n';
import { ErrorNote, Page, TextField, useAsync, useSubmit } from '../../ui';
import {
  ForContactForm,
  SummaryList,
  problemsOf,
  problemsUnder,
  ProblemList,
  StateCounts,
  recordState,
  stateName,
  useTemplates,
} from './common';
import { FlowGraph } from './flow-graph';
import { cleanNode, edgesOf, nodeTypeName, NodeEditor, TargetSelect, withEdge, type FlowNode } from './flow-nodes';
import { RunTable } from './sequences';
import './words';

const RUN_STATES = ['active', 'waiting', 'completed', 'handed_off', 'failed', 'cancelled'];

type Flow = ActionAnswer<'get-flow'>;

/** Flows: every chatbot flow with its runs by state. */
export function FlowList() {
  const count = (state: string) => (counts: Record<string, number>) => counts[state] ?? 0;
  const finished = ['completed', 'handed_off', 'failed'].map((state) => ({
    label: stateName(state),
    count: count(state),
  }));
  return (
    <SummaryList
      title={t('automation:flows.title')}
      intro={t('automation:flows.intro')}
      path="flows"
      newLabel={t('automation:flows.new')}
      empty={t('automation:flows.empty')}
      columns={[
        { label: t('automation:flows.running'), count: (counts) => (counts.active ?? 0) + (counts.waiting ?? 0) },
        ...finished,
      ]}
    />
  );
}

/** /flows/new and /flows/:id: the node editor beside a diagram, and for a saved flow its runs. */
export function FlowPage({ id }: { id?: string }) {
  const flow = useAsync(() => (id ? action('get-flow', { flow_id: id }) : Promise.resolve(null)), [id]);
  const title = id ? (flow.data?.name ?? t('automation:flows.flow')) : t('automation:flows.new');
  return (
    <Page title={title} actions={<Link href="/flows">{t('automation:flows.all')}</Link>}>
      <ErrorNote error={flow.error} />
      {flow.loading && !flow.data && <p class="loading">{t('automation:loading')}</p>}
      {(flow.data || (!id && !flow.loading)) && (
        <FlowEditor key={flow.data?.updated_at ?? 'new'} flow={flow.data ?? null} reload={flow.reload} />
      )}
    </Page>
  );
}

const FIRST_NODE: FlowNode = { id: 'start', type: 'send_text', text: '' };

function FlowEditor({ flow, reload }: { flow: Flow | null; reload: () => void }) {
  const templates = useTemplates();
  const [name, setName] = useState(flow?.name ?? '');
  const [keywords, setKeywords] = useState((flow?.keywords ?? []).join(', '));
  const [start, setStart] = useState(flow?.start ?? 'start');
  const [nodes, setNodes] = useState<FlowNode[]>(flow?.nodes ?? [FIRST_NODE]);
  const [saved, setSaved] = useState(false);

  const save = useSubmit(async () => {
    setSaved(false);
    const words = keywords
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
    const result = await action('save-flow', {
      ...(flow && { id: flow.id }),
      name,
      definition: { start, keywords: words, nodes: nodes.map(cleanNode) },
    });
    setSaved(true);
    if (!flow) navigate(`/flows/${result.id}`, { replace: true });
  });
  const problems = problemsOf(save.error);
  const nodeProblems = (i: number) => problemsUnder(problems, `/definition/nodes/${i}`);
  const otherProblems = problems.filter((p) => !/^\/definition\/nodes\/\d+(\/|$)/.test(p.field));
  const invalidIds = new Set(nodes.filter((_, i) => nodeProblems(i).length > 0).map((n) => n.id));

  const [focusId, setFocusId] = useState<string | null>(null);
  useFocusNode(nodes, focusId, () => setFocusId(null));
  const targets = nodes.map((n) => ({
    id: n.id,
    label: t('automation:flows.target', { id: n.id, type: nodeTypeName(n.type) }),
  }));
  const freshId = () => {
    let n = nodes.length + 1;
    while (nodes.some((node) => node.id === `node_${n}`)) n++;
    return `node_${n}`;
  };
  const addNode = () => {
    const id = freshId();
    setNodes([...nodes, { id, type: 'end' }]);
    setFocusId(id);
  };
  /** A new text node on an edge: the edge points at it, and it goes on where the edge went. */
  const insertOn = (fromId: string, edge: string) => {
    const id = freshId();
    const from = nodes.find((n) => n.id === fromId)!;
    const after = edgesOf(from).find(([key]) => key === edge)?.[1];
    const added: FlowNode = { id, type: 'send_text', text: '', ...(after && { next: after }) };
    setNodes([...nodes.map((n) => (n === from ? withEdge(n, edge, id) : n)), added]);
    setFocusId(id);
  };

  return (
    <div class="automation-layout">
      <form class="automation-editor" onSubmit={save.onSubmit} aria-label={t('automation:flows.flow')} noValidate>
        <TextField
          label={t('automation:name')}
          value={name}
          onValue={(value) => {
            setName(value);
            save.edited('/name');
          }}
          maxLength={200}
          required
          error={problems.find((p) => p.field === '/name')?.message}
        />
        <TextField
          label={t('automation:flows.keywords')}
          value={keywords}
          onValue={(value) => {
            setKeywords(value);
            save.edited('/definition/keywords');
          }}
          hint={t('automation:flows.keywordsHint')}
        />
        <StartField
          value={start}
          targets={targets}
          onValue={(value) => {
            setStart(value);
            save.edited('/definition/start');
          }}
          error={problems.find((p) => p.field === '/definition/start')?.message}
        />
        <ProblemList
          problems={otherProblems.filter((p) => p.field !== '/name' && p.field !== '/definition/start')}
          labels={{
            '/definition/keywords': t('automation:flows.keywords'),
            '/definition/nodes': t('automation:flows.nodes'),
            '/definition': t('automation:flows.flow'),
          }}
        />
        <h2>{t('automation:flows.nodes')}</h2>
        <ErrorNote error={templates.error} />
        {nodes.map((node, i) => (
          <NodeEditor
            key={i}
            node={node}
            index={i}
            isStart={node.id === start}
            problems={nodeProblems(i)}
            templates={templates.data ?? []}
            targets={targets}
            onChange={(changed, fields) => {
              setNodes(nodes.map((n, j) => (j === i ? changed : n)));
              save.edited(...fields.map((field) => `/definition/nodes/${i}${field && `/${field}`}`));
            }}
            onRemove={() => {
              setNodes(nodes.filter((_, j) => j !== i));
              save.edited('/definition/nodes'); // the nodes after it move up: their problems no longer fit
            }}
            onMakeStart={() => {
              setStart(node.id);
              save.edited('/definition/start');
            }}
          />
        ))}
        <div class="form-actions">
          <button type="button" onClick={addNode}>
            {t('automation:flows.addNode')}
          </button>
          <button type="submit" class="primary" disabled={save.busy}>
            {t('automation:flows.save')}
          </button>
        </div>
        {save.error !== null && problems.length > 0 && (
          <p class="error" role="alert">
            {t('automation:flows.notSaved', { count: problems.length })}
          </p>
        )}
        {save.error !== null && problems.length === 0 && <ErrorNote error={save.error} />}
        {saved && (
          <p class="notice" role="status">
            {t('automation:saved')}
          </p>
        )}
      </form>
      <div class="automation-side">
        <FlowGraph nodes={nodes} start={start} invalidIds={invalidIds} onSelect={setFocusId} onInsert={insertOn} />
        {flow && <FlowRuns flow={flow} reload={reload} />}
      </div>
    </div>
  );
}

/** Brings a node's editor into view and puts the cursor in it (a click in the diagram, a node just added). */
// A layout effect, so the cursor is in place in the same task the editor appears (an effect waits for a frame).
function useFocusNode(nodes: FlowNode[], nodeId: string | null, done: () => void) {
  useLayoutEffect(() => {
    if (nodeId === null) return;
    const fieldset = document.querySelector<HTMLElement>(`fieldset[data-node="${CSS.escape(nodeId)}"]`);
    fieldset?.scrollIntoView({ block: 'start' });
    fieldset?.querySelector<HTMLElement>('input, select, textarea')?.focus({ preventScroll: true });
    done();
  }, [nodes, nodeId, done]);
}

function StartField(props: {
  value: string;
  targets: { id: string; label: string }[];
  onValue: (id: string) => void;
  error: string | undefined;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{t('automation:flows.startNode')}</label>
      <TargetSelect
        id={id}
        value={props.value}
        targets={props.targets}
        onValue={props.onValue}
        aria-invalid={props.error ? true : undefined}
        empty={t('automation:flows.chooseNode')}
      />
      {props.error && <small class="error">{props.error}</small>}
    </div>
  );
}

/** Runs by state, the start form and the latest runs of a saved flow. */
function FlowRuns({ flow, reload }: { flow: Flow; reload: () => void }) {
  const recent = useAsync(
    () => v1.get('/v1/triggers/new-flow-triggered', { query: { flow_id: flow.id } }),
    [flow.id, flow.runs],
  );
  const start = async (phone: string) => {
    const started = await action('trigger-flow', { flow_id: flow.id, phone });
    reload();
    return t('automation:flows.startedFor', {
      phone: started.contact_phone,
      state: recordState(started.status).toLocaleLowerCase(),
    });
  };
  return (
    <section aria-labelledby="runs-title">
      <h2 id="runs-title">{t('automation:flows.runs')}</h2>
      <StateCounts counts={flow.runs} states={RUN_STATES} label={t('automation:flows.runsByState')} />
      <ForContactForm label={t('automation:flows.startForContact')} submit={t('automation:flows.start')} run={start} />
      <h3>{t('automation:flows.recentRuns')}</h3>
      <ErrorNote error={recent.error} />
      <RunTable records={recent.data ?? []} caption={t('automation:flows.recentRuns')} />
    </section>
  );
}
