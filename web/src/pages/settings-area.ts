/** Settings → Channel, Workspace, Opt-out, Team and Your account, and the Simulator: one import for the route table. */
export { AccountSettings } from './settings-account';
export { ChannelSettings } from './settings-channel';
export { OptOutSettingsPage } from './settings-opt-out';
export { TeamSettings } from './settings-team';
export { WorkspaceSettings } from './settings-workspace';
export { Simulator } from './simulator';
