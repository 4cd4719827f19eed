#!/usr/bin/env node
// The `parley` command: the TypeScript CLI (src/cli/main.ts), run from the bundle bin/bundle.js makes.
import { runEntry } from './bundle.js';

await runEntry('cli');
