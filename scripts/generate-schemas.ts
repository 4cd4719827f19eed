/**
 * Writes the published JSON Schemas (checked in; a test fails when they are stale):
 *   node --import tsx scripts/generate-schemas.ts
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as prettier from 'prettier';
import { FlowDefinitionSchema } from '../src/flows/flow.definition.js';
import { WorkspaceDataSchema } from '../src/portability/workspace-data.schema.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** A generated file: where it lives (relative to the repository) and its schema. */
export interface GeneratedSchema {
  file: string;
  schema: object;
}

/** Every schema this script publishes. */
export const GENERATED_SCHEMAS: GeneratedSchema[] = [
  { file: 'docs/workspace-data.schema.json', schema: WorkspaceDataSchema },
  // A chatbot flow's definition (save-flow, save-flow-draft), for editors and tools that build one.
  { file: 'docs/flow-definition.schema.json', schema: FlowDefinitionSchema },
];

/** The file's text: the schema as plain JSON (TypeBox's symbol keys drop out), formatted as `prettier` would. */
export async function renderSchema({ file, schema }: GeneratedSchema): Promise<string> {
  const json = JSON.stringify({ $schema: DRAFT_2020_12, ...schema }, null, 2);
  const filepath = path.join(ROOT, file);
  const options = await prettier.resolveConfig(filepath);
  return prettier.format(json, { ...options, filepath });
}

async function main(): Promise<void> {
  for (const generated of GENERATED_SCHEMAS) {
    const target = path.join(ROOT, generated.file);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, await renderSchema(generated));
    process.stdout.write(`wrote ${generated.file}\n`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();
