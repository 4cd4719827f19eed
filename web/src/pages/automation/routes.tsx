import type { Route } from '../../router';
import { NewCampaign } from './campaign-new';
import { CampaignList, CampaignPage } from './campaigns';
import { FlowList, FlowPage } from './flows';
import { SequenceList, SequencePage } from './sequences';

/** Sequences, flows and campaigns, by path. */
export const AutomationRoutes: Route[] = [
  { pattern: /^\/sequences$/, render: () => <SequenceList /> },
  { pattern: /^\/sequences\/new$/, render: () => <SequencePage key="new" /> },
  { pattern: /^\/sequences\/([^/]+)$/, render: ([id]) => <SequencePage key={id} id={id} /> },
  { pattern: /^\/flows$/, render: () => <FlowList /> },
  { pattern: /^\/flows\/new$/, render: () => <FlowPage key="new" /> },
  { pattern: /^\/flows\/([^/]+)$/, render: ([id]) => <FlowPage key={id} id={id} /> },
  { pattern: /^\/campaigns$/, render: () => <CampaignList /> },
  { pattern: /^\/campaigns\/new$/, render: () => <NewCampaign /> },
  { pattern: /^\/campaigns\/([^/]+)$/, render: ([id]) => <CampaignPage key={id} id={id!} /> },
];
