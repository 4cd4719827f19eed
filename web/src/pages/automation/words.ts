import { addEnglish } from '../../i18n/i18n';
import automation from '../../locales/en/automation.json';

// The automation pages' English words come with them: each page the routes load imports this module.
addEnglish({ automation });
