import { addEnglish } from '../../i18n/i18n';
import knowledge from '../../locales/en/knowledge.json';

// The page's words come with it (before it renders).
addEnglish({ knowledge });

export { KnowledgePage } from './knowledge-page';
