/**
 * src/contacts/'s front door: contacts, their import and export, and tagging. Other folders import it only
 * through here.
 */
export { type BulkContact, type ContactBulk, createContactBulk } from './contact.bulk.js';
export { createContactDashboardService } from './contact.dashboard.js';
export { registerContactDashboardRoutes } from './contact.dashboard.routes.js';
export { contactsCsv } from './contact.export.js';
export { type ContactBookService, createContactBook } from './contact-book.js';
export { createContactImportService, type ImportResult } from './contact.import.js';
export { given, parseEmail, parseName, parsePhone, parseTagNames } from './contact.input.js';
export { contactProblems } from './contact.problems.js';
export { contactRepository, type ContactRow, newContactRow } from './contact.repository.js';
export { registerContactRoutes } from './contact.routes.js';
export { type CallPermission, ContactId, PhoneRef } from './contact.schema.js';
export { searchNeedle } from './contact.search.js';
export { type ContactService, createContactService } from './contact.service.js';
export { type ContactEvents, createTagging, type Tagging, type TagLink } from './tagging.js';
