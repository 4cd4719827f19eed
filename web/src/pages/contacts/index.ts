export { ContactsList } from './contacts-list';
export { ContactPage } from './contact-page';
export { ContactNew } from './contact-new';
