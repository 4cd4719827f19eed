/**
 * src/sequences/'s front door: drip sequences. Other folders import it only through here.
 */
export { registerSequenceRoutes } from './sequence.routes.js';
export { type SaveSequenceInput, SequenceDefinitionSchema } from './sequence.schema.js';
export { createSequenceService, type SequenceService } from './sequence.service.js';
