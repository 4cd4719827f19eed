/** Settings → Channel, Workspace and Team, and the Simulator: one import for the route table. */
export { ChannelSettings } from './settings-channel';
export { TeamSettings } from './settings-team';
export { WorkspaceSettings } from './settings-workspace';
export { Simulator } from './simulator';
