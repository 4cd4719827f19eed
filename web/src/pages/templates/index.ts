import { addEnglish } from '../../i18n/i18n';
import templates from '../../locales/en/templates.json';

// The group's words come with it (before any of its pages renders).
addEnglish({ templates });

export { TemplateEditor } from './template-editor';
export { TemplateView } from './template-view';
export { TemplatesList } from './templates-list';
