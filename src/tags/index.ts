/**
 * src/tags/'s front door: contact tags. Other folders import it only through here.
 */
export { tagKey, tagRepository } from './tag.repository.js';
export { registerTagRoutes } from './tag.routes.js';
export { createTagService } from './tag.service.js';
