export { ContactsList } from './contacts-list';
export { ContactPage } from './contact-page';
export { ContactImport } from './contact-import';
export { ContactNew } from './contact-new';
export { TagsPage } from './tags-page';
