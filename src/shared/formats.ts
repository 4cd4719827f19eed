import { FormatRegistry } from '@sinclair/typebox';

/**
 * The string formats the API schemas use, for TypeBox's own checker (the CLI validates with the
 * same schemas as the routes; Fastify's ajv knows these formats already).
 */
const FORMATS: Record<string, (value: string) => boolean> = {
  uuid: (value) => /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i.test(value),
  'date-time': (value) =>
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i.test(value) &&
    !Number.isNaN(Date.parse(value)),
};

export function registerFormats(): void {
  for (const [name, check] of Object.entries(FORMATS)) {
    if (!FormatRegistry.Has(name)) FormatRegistry.Set(name, check);
  }
}
