import { addEnglish } from '../i18n/i18n';
import aiModel from '../locales/en/ai-model.json';
import assistant from '../locales/en/assistant.json';
import channel from '../locales/en/channel.json';
import routing from '../locales/en/routing.json';
import settings from '../locales/en/settings.json';
import simulator from '../locales/en/simulator.json';

// The group's words come with it (before any of its pages renders).
addEnglish({ 'ai-model': aiModel, assistant, channel, routing, settings, simulator });

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
export { AiModelSettings } from './settings-ai-model';
export { AssistantSettingsPage } from './settings-assistant';
