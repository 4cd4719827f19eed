import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createWorkspace } from './factories.js';
import { startParleyProcess } from './parley-process.js';
import { ENGINE, startServer } from './server.js';

const FIRST_RUN =
  /^No workspace yet: open https:\/\/\S+ to set up \(or run `parley setup` with this server's DATA_DIR \/ DATABASE_URL/;

describe(`first run (${ENGINE})`, () => {
  test('a server with no workspace logs where to set one up; once one exists it does not', async () => {
    const server = await startServer();
    const fresh = await startParleyProcess('fresh', server.env, server.app.tls!.cert);
    assert.ok(
      fresh.logs.some((line) => FIRST_RUN.test(line.msg ?? '')),
      JSON.stringify(fresh.logs.map((line) => line.msg)),
    );
    await fresh.kill();

    await createWorkspace(server);
    const later = await startParleyProcess('later', server.env, server.app.tls!.cert);
    assert.equal(later.logs.filter((line) => FIRST_RUN.test(line.msg ?? '')).length, 0);
  });
});
