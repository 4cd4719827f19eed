#!/usr/bin/env node
// The server (src/main.ts) from the bundle bin/bundle.js makes: what the container image runs, as PID 1.
import { runEntry } from './bundle.js';

await runEntry('server');
