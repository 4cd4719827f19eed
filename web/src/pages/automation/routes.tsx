import { lazy, type Route } from '../../router';

const campaigns = () => import('./campaigns');
const newCampaign = () => import('./campaign-new');
const flows = () => import('./flows');
const flowEditor = () => import('./flow-editor');
const sequences = () => import('./sequences');

/** Sequences, flows and campaigns, by path; each loads on its first visit. */
export const AutomationRoutes: Route[] = [
  { pattern: /^\/sequences$/, render: lazy(sequences, (m) => <m.SequenceList />) },
  { pattern: /^\/sequences\/new$/, render: lazy(sequences, (m) => <m.SequencePage key="new" />) },
  { pattern: /^\/sequences\/([^/]+)$/, render: lazy(sequences, (m, [id]) => <m.SequencePage key={id} id={id} />) },
  { pattern: /^\/flows$/, render: lazy(flows, (m) => <m.FlowList />) },
  { pattern: /^\/flows\/new$/, render: lazy(flowEditor, (m) => <m.FlowPage key="new" />) },
  { pattern: /^\/flows\/([^/]+)$/, render: lazy(flowEditor, (m, [id]) => <m.FlowPage key={id} id={id} />) },
  { pattern: /^\/campaigns$/, render: lazy(campaigns, (m) => <m.CampaignList />) },
  { pattern: /^\/campaigns\/new$/, render: lazy(newCampaign, (m) => <m.NewCampaign />) },
  { pattern: /^\/campaigns\/([^/]+)$/, render: lazy(campaigns, (m, [id]) => <m.CampaignPage key={id} id={id!} />) },
];
