import type { Config } from './config.js';
import { openDatabase } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import { createContactService } from './contacts/contact.service.js';
import { createDropdownService } from './dropdowns/dropdown.service.js';
import { createPortabilityService } from './portability/portability.service.js';
import { systemClock, type Clock } from './shared/clock.js';
import type { Deps } from './shared/context.js';
import { createIdGenerator } from './shared/ids.js';
import { createTagService } from './tags/tag.service.js';
import { createTemplateService } from './templates/template.service.js';
import { createTriggerService } from './triggers/trigger.service.js';
import { createTokenService } from './workspaces/token.service.js';
import { createWorkspaceService } from './workspaces/workspace.service.js';

/** Every service, built once from the same dependencies; the REST API and the CLI share them. */
export function createServices(deps: Deps) {
  const templates = createTemplateService(deps);
  const contacts = createContactService(deps);
  return {
    deps,
    workspaces: createWorkspaceService(deps),
    tokens: createTokenService(deps),
    contacts,
    tags: createTagService(deps),
    templates,
    triggers: createTriggerService(deps),
    dropdowns: createDropdownService(deps, templates),
    portability: createPortabilityService(deps, contacts, templates),
  };
}

export type Services = ReturnType<typeof createServices>;

/** Opens the configured database, migrates it to the latest schema and builds the services on it. */
export async function openServices(config: Config, clock: Clock = systemClock): Promise<Services> {
  const { db, dialect } = openDatabase(config);
  await migrateToLatest(db, dialect);
  return createServices({ db, dialect, clock, newId: createIdGenerator(clock) });
}
