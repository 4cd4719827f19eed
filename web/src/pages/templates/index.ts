export { TemplateEditor } from './template-editor';
export { TemplateView } from './template-view';
export { TemplatesList } from './templates-list';
