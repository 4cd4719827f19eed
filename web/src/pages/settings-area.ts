/** The Settings pages and the Simulator: one lazily loaded chunk for the route table. */
export { AccountSettings } from './settings-account';
export { ChannelSettings } from './settings-channel';
export { OptOutSettingsPage } from './settings-opt-out';
export { BusinessHoursSettings } from './settings-business-hours';
export { TeamSettings } from './settings-team';
export { WorkspaceSettings } from './settings-workspace';
export { Simulator } from './simulator';
export { ApiTokens } from './settings-tokens';
export { WorkspaceEvents } from './settings-events';
export { QuickRepliesSettings } from './settings-quick-replies';
export { RoutingSettingsPage } from './settings-routing';
