/**
 * The public API's generated types (docs/openapi.yaml), as the dashboard's pages use them: pages import
 * them from here, never from packages/.
 */
export type { components, operations, paths } from '../../../packages/client/src/schema';
import type { components } from '../../../packages/client/src/schema';

/** One of the public document's schemas by name: `PublicSchema<'Team'>`. */
export type PublicSchema<N extends keyof components['schemas']> = components['schemas'][N];
